// Out-of-tree use of the C++ API: compiles argv[1] for argv[2] into argv[3]
// and prints the facts of each function.
#include <ptxas-alt/Compiler.h>

#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  std::ifstream In(argv[1]);
  std::stringstream Text;
  Text << In.rdbuf();
  ptxas::CompileOptions O;
  O.Arch = argv[2];
  ptxas::CompileResult R = ptxas::compile(Text.str(), O, {}, argv[1]);
  if (!R.ok()) {
    std::cerr << R.ErrorLog;
    return 1;
  }
  for (const ptxas::FunctionInfo &F : R.Functions)
    std::cout << "function " << F.Name << " registers " << F.Registers
              << " shared " << F.SharedBytes << "\n";
  std::ofstream(argv[3], std::ios::binary)
      .write(reinterpret_cast<const char *>(R.Cubin.data()),
             std::streamsize(R.Cubin.size()));
  ptxas::CompileResult Bad = ptxas::compile("garbage", {"-arch=sm_80"});
  if (Bad.ok() || Bad.Diagnostics.empty())
    return 3;
  std::cout << "diagnostic " << Bad.Diagnostics[0].Line << ":"
            << Bad.Diagnostics[0].Message << "\n";
  return 0;
}
