#include <cuda_runtime.h>
#include <cuda_fp16.h>
__device__ inline float4 operator+(float4 a, float4 b){return make_float4(a.x+b.x,a.y+b.y,a.z+b.z,a.w+b.w);}
__device__ inline int4 operator+(int4 a, int4 b){return make_int4(a.x+b.x,a.y+b.y,a.z+b.z,a.w+b.w);}
__global__ void tex_k(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3, cudaTextureObject_t tc, cudaTextureObject_t ti, float4* o, int4* oi, float x, float y, float z, int n) {
  int i = threadIdx.x;
  float4 r = tex1D<float4>(t1, x) + tex2D<float4>(t2, x, y) + tex3D<float4>(t3, x, y, z);
  r.x += tex1Dfetch<float>(t1, i) + tex1DLod<float>(t1, x, 1.5f) + tex2DLod<float>(t2, x, y, z) + tex3DLod<float>(t3, x, y, z, 2.f);
  r.y += tex1DLayered<float>(t1, x, n) + tex2DLayered<float>(t2, x, y, n) + tex2DLayeredLod<float>(t2, x, y, n, z);
  r.z += texCubemap<float>(tc, x, y, z) + texCubemapLayered<float>(tc, x, y, z, n) + texCubemapLod<float>(tc, x, y, z, 1.f);
  r.w += tex2DGrad<float>(t2, x, y, make_float2(1, 0), make_float2(0, 1)) + tex1DGrad<float>(t1, x, 1.f, 2.f) + tex3DGrad<float>(t3, x, y, z, make_float4(1,0,0,0), make_float4(0,1,0,0));
  float4 g = tex2Dgather<float4>(t2, x, y, 0) + tex2Dgather<float4>(t2, x, y, 1) + tex2Dgather<float4>(t2, x, y, 3);
  int4 gi = tex2Dgather<int4>(ti, x, y, 2);
  int4 ri = tex2D<int4>(ti, x, y) + tex1Dfetch<int4>(ti, i);
  uchar4 uc = tex2D<uchar4>(ti, x, y);
  short2 sh = tex1D<short2>(ti, x);
  float2 f2 = tex2D<float2>(t2, x + 1, y);
  float hh = tex2D<float>(t2, x, y + 1);
  o[i] = r + g + make_float4(f2.x, f2.y, hh, uc.x + sh.y);
  oi[i] = gi + ri;
  float ld[4]; 
}
__global__ void tex_query(cudaTextureObject_t t, int* o) {
  int w, h, d, l, s;
  asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t));
  asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(t));
  asm("txq.depth.b32 %0, [%1];" : "=r"(d) : "l"(t));
  asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(l) : "l"(t));
  asm("txq.level.width.b32 %0, [%1], %2;" : "=r"(s) : "l"(t), "r"(w));
  o[0] = w + h + d + l + s;
}
__global__ void surf_k(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2, cudaSurfaceObject_t s3, int x, int y, int z, float v, int* o) {
  float a = surf1Dread<float>(s1, x * 4);
  float4 b = surf2Dread<float4>(s2, x * 16, y);
  int c = surf3Dread<int>(s3, x * 4, y, z);
  uchar2 c2 = surf2Dread<uchar2>(s2, x * 2, y, cudaBoundaryModeClamp);
  short4 s4 = surf2Dread<short4>(s2, x * 8, y, cudaBoundaryModeZero);
  int l = surf1DLayeredread<int>(s1, x * 4, z);
  float ll = surf2DLayeredread<float>(s2, x * 4, y, z);
  surf1Dwrite(v, s1, x * 4);
  surf2Dwrite(make_float4(v, a, b.x, b.y), s2, x * 16, y);
  surf3Dwrite(c + 1, s3, x * 4, y, z);
  surf2Dwrite(make_uchar4(1, 2, 3, 4), s2, x * 4, y, cudaBoundaryModeClamp);
  surf2Dwrite((short)5, s2, x * 2, y, cudaBoundaryModeZero);
  surf1DLayeredwrite(l, s1, x * 4, z);
  surf2DLayeredwrite(ll, s2, x * 4, y, z);
  surfCubemapwrite(v, s3, x * 4, y, z);
  o[0] = c2.x + s4.y + l;
  int r;
  r = x;
  asm volatile("sured.b.add.2d.u32.trap [%0, {%1, %2}], %3;" :: "l"(s2), "r"(x), "r"(y), "r"(z));
  asm volatile("sured.b.min.1d.s32.zero [%0, {%1}], %2;\n\tsured.b.or.3d.b32.clamp [%0, {%1, %1, %1, %1}], %2;\n\tsured.b.max.2d.u64.trap [%0, {%1, %1}], %3;" :: "l"(s1), "r"(x), "r"(z), "l"((long long)z));
  int sw; asm("suq.width.b32 %0, [%1];" : "=r"(sw) : "l"(s2));
  o[1] = r + sw;
}
