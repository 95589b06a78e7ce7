#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;
template <int M, int N, int K, typename TA, typename TC, typename LA, typename LB>
__device__ void wm(const TA* a, const TA* b, TC* c) {
  wmma::fragment<wmma::matrix_a, M, N, K, TA, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, TA, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
  wmma::load_matrix_sync(fa, a, 32);
  wmma::load_matrix_sync(fb, b, 32);
  wmma::load_matrix_sync(fc, c, 32, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 32, wmma::mem_col_major);
}
__global__ void wmma_half(const half* a, const half* b, float* c, half* ch) {
  wm<16, 16, 16, half, float, wmma::row_major, wmma::col_major>(a, b, c);
  wm<32, 8, 16, half, float, wmma::col_major, wmma::row_major>(a, b, c);
  wm<8, 32, 16, half, half, wmma::row_major, wmma::row_major>(a, b, ch);
  wm<16, 16, 16, half, half, wmma::col_major, wmma::col_major>(a, b, ch);
}
__global__ void wmma_int(const signed char* a, const signed char* b, int* c, const unsigned char* ua) {
  wm<16, 16, 16, signed char, int, wmma::row_major, wmma::col_major>(a, b, c);
  wm<32, 8, 16, unsigned char, int, wmma::row_major, wmma::col_major>(ua, ua, c);
  wm<8, 32, 16, signed char, int, wmma::row_major, wmma::col_major>(a, b, c);
}
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__global__ void wmma_80(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, const float* ta, const double* da, double* dc) {
  wm<16, 16, 16, __nv_bfloat16, float, wmma::row_major, wmma::col_major>(a, b, c);
  wm<32, 8, 16, __nv_bfloat16, float, wmma::col_major, wmma::row_major>(a, b, c);
  {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::load_matrix_sync(fa, ta, 16); wmma::load_matrix_sync(fb, ta + 256, 16);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    wmma::fill_fragment(fc, 0.f);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
  }
  wm<8, 8, 4, double, double, wmma::row_major, wmma::col_major>(da, da, dc);
  {
    wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::s4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, wmma::experimental::precision::s4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::load_matrix_sync(fa, (const void*)a, 32); wmma::load_matrix_sync(fb, (const void*)b, 32);
    wmma::fill_fragment(fc, 0);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((int*)c, fc, 8, wmma::mem_row_major);
  }
  {
    wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::u4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, wmma::experimental::precision::u4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::load_matrix_sync(fa, (const void*)a, 32); wmma::load_matrix_sync(fb, (const void*)b, 32);
    wmma::fill_fragment(fc, 0);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync((int*)c, fc, 8, wmma::mem_col_major);
  }
  {
    wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
    wmma::load_matrix_sync(fa, (const void*)a, 128); wmma::load_matrix_sync(fb, (const void*)b, 128);
    wmma::fill_fragment(fc, 0);
    wmma::bmma_sync(fc, fa, fb, fc, wmma::experimental::bmmaBitOpXOR);
    wmma::bmma_sync(fc, fa, fb, fc, wmma::experimental::bmmaBitOpAND);
    wmma::store_matrix_sync((int*)c, fc, 8, wmma::mem_row_major);
  }
}
// raw mma.sync shapes
__global__ void mma_raw(unsigned* a, float* c, int* ci, double* cd, unsigned short* h) {
  int l = threadIdx.x;
  unsigned a0 = a[l], a1 = a[l+32], a2 = a[l+64], a3 = a[l+96], b0 = a[l+128], b1 = a[l+160];
  float d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  unsigned h0 = h[l], h1 = h[l+32];
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%0,%1};" : "+r"(h0), "+r"(h1) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};" : "+r"(h0), "+r"(h1) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  int i0 = ci[l], i1 = ci[l+32], i2 = ci[l+64], i3 = ci[l+96];
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32.satfinite {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u4.u4.s32.satfinite {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+r"(i0), "+r"(i1), "+r"(i2), "+r"(i3) : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.u8.s32 {%0,%1}, {%2}, {%3}, {%0,%1};" : "+r"(i0), "+r"(i1) : "r"(a0), "r"(b0));
  double e0 = cd[l], e1 = cd[l+32], e2 = cd[l+64], e3 = cd[l+96]; double da0 = cd[l+128], da1 = cd[l+160], db0 = cd[l+192], db1 = cd[l+224];
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};" : "+d"(e0), "+d"(e1) : "d"(da0), "d"(db0));
#if __CUDA_ARCH__ >= 900
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+d"(e0), "+d"(e1), "+d"(e2), "+d"(e3) : "d"(da0), "d"(da1), "d"(db0));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};" : "+d"(e0), "+d"(e1), "+d"(e2), "+d"(e3) : "d"(da0), "d"(da1), "d"(db0), "d"(db1), "d"(da0), "d"(da1), "d"(db0), "d"(db1), "d"(da0), "d"(da1), "d"(db0), "d"(db1));
#endif
#if __CUDA_ARCH__ >= 890
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
#endif
  c[l] = d0 + d1 + d2 + d3; ci[l] = i0 + i1 + i2 + i3 + h0 + h1; cd[l] = e0 + e1 + e2 + e3;
}
__global__ void ldst_matrix(unsigned* o, int k) {
  __shared__ unsigned short s[4096];
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = i * k;
  __syncthreads();
  unsigned addr = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x % 32) * 8 * k]);
  unsigned r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(addr));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r1), "=r"(r2) : "r"(addr));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4+128];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  unsigned q0, q1, q2, q3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(q0), "=r"(q1), "=r"(q2), "=r"(q3) : "r"(addr));
#if __CUDA_ARCH__ >= 900
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(addr), "r"(r0));
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" :: "r"(addr), "r"(r0), "r"(r1));
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0+64], {%1,%2,%3,%4};" :: "r"(addr), "r"(r0), "r"(r1), "r"(r2), "r"(r3));
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(addr), "r"(q0), "r"(q1), "r"(q2), "r"(q3));
#endif
  __syncthreads();
  o[threadIdx.x] = r0 + r1 + r2 + r3 + q0 + q1 + q2 + q3 + s[threadIdx.x];
}
#endif
