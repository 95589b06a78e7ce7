// Host side, so that nvcc builds and links a whole program.
#include <cstdio>
extern "C" __global__ void scale_add(float *out, const float *in, int n);

int main() {
  float *out = nullptr, *in = nullptr;
  if (cudaMalloc(&out, 128 * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&in, 128 * sizeof(float)) != cudaSuccess) {
    std::printf("no GPU\n");
    return 0;
  }
  scale_add<<<2, 64>>>(out, in, 120);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
