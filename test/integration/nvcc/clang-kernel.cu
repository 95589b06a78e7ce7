// For clang --ptxas-path: no CUDA headers (the installed clang may predate
// the CUDA release), so the attribute is spelled out.
#define __global__ __attribute__((global))
extern "C" __global__ void k(int *p, int n) { for (int i = 0; i < n; ++i) p[i] = p[i] * 3 + i; }
