#include "helper.cuh"

__device__ float helper(float x, int i) {
  float acc = 0.0f;
  for (int k = 0; k < (i & 7) + 1; ++k)
    acc = acc * 0.5f + x / (1.0f + k);
  return acc;
}
