// Calibration program: texture and surface objects (fetches, filtered 2D
// reads, surface loads and stores, layered and cube reads).
#include <cuda_runtime.h>
__global__ void tex_kernels(cudaTextureObject_t t1, cudaTextureObject_t t2,
                            cudaTextureObject_t tl, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  float a = tex1Dfetch<float>(t1, x);
  float4 b = tex2D<float4>(t2, x + 0.5f, y + 0.5f);
  float c = tex2DLayered<float>(tl, x * 0.25f, y * 0.5f, y & 3);
  float d = tex2DLod<float>(tl, x * 0.1f, y * 0.1f, 1.5f);
  float4 g = tex2Dgather<float4>(t2, x * 0.3f, y * 0.3f, 1);
  out[y * w + x] = a + b.x * b.y + c + d + g.z;
}
__global__ void surf_kernels(cudaSurfaceObject_t s, cudaSurfaceObject_t s3,
                             int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  float v = surf2Dread<float>(s, x * 4, y);
  uchar4 u = surf3Dread<uchar4>(s3, x * 4, y, 1);
  v = v * 2.0f + u.x;
  surf2Dwrite(v, s, x * 4, y);
  surf3Dwrite(make_uchar4(u.w, u.z, u.y, u.x), s3, x * 4, y, 2);
  int shl = x << 3;
  surf2Dwrite(shl, s, shl, y, cudaBoundaryModeClamp);
}
__global__ void cube(cudaTextureObject_t c, float *out) {
  int x = threadIdx.x;
  out[x] = texCubemap<float>(c, x * 0.1f, 1.0f, -0.5f);
}
