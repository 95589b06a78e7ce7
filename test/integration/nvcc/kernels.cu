#include "helper.cuh"

extern "C" __global__ void scale_add(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = helper(in[i], i) + sqrtf(fabsf(in[i]));
}
