// Calibration program: tensor cores through wmma (f16, bf16, tf32, int8,
// int4, binary b1 with XOR/AND popc) and mma.sp (sparse) through PTX.
#include <mma.h>
using namespace nvcuda;
__global__ void wmma_f16(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < 4; ++k) {
    wmma::load_matrix_sync(fa, a + k * 16, 64);
    wmma::load_matrix_sync(fb, b + k * 16, 64);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void wmma_int8(const signed char *a, const signed char *b, int *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::fill_fragment(fc, 0);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
#if __CUDA_ARCH__ >= 800
__global__ void wmma_tf32_bf16(const float *a, const float *b, float *c,
                               const __nv_bfloat16 *x, const __nv_bfloat16 *y) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 8);
  for (int t = 0; t < fa.num_elements; t++) fa.x[t] = wmma::__float_to_tf32(fa.x[t]);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> ga;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> gb;
  wmma::load_matrix_sync(ga, x, 16);
  wmma::load_matrix_sync(gb, y, 16);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> gc;
  wmma::fill_fragment(gc, 1.0f);
  wmma::mma_sync(gc, ga, gb, gc);
  for (int t = 0; t < gc.num_elements; t++) fc.x[t] += gc.x[t];
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void bmma(const unsigned *a, const unsigned *b, int *c) {
  using namespace wmma::experimental;
  wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
  wmma::fill_fragment(fc, 0);
  wmma::load_matrix_sync(fa, a, 128);
  wmma::load_matrix_sync(fb, b, 128);
  wmma::bmma_sync(fc, fa, fb, fc, bmmaBitOpXOR);
  wmma::bmma_sync(fc, fa, fb, fc, bmmaBitOpAND);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
}
__global__ void int4mma(const int *a, const int *b, int *c) {
  using namespace wmma::experimental;
  wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
  wmma::fill_fragment(fc, 0);
  wmma::load_matrix_sync(fa, a, 32);
  wmma::load_matrix_sync(fb, b, 32);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
}
__global__ void sparse_mma(const unsigned *a, const unsigned *b, float *c,
                           const unsigned *meta, const int *ia, int *ic) {
  int l = threadIdx.x;
  unsigned a0 = a[l], a1 = a[l + 32], b0 = b[l], b1 = b[l + 32], e = meta[l];
  float d0, d1, d2, d3;
  asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 0x0;"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
               : "r"(a0), "r"(a1), "r"(b0), "r"(b1), "f"(0.f), "f"(1.f),
                 "f"(2.f), "f"(3.f), "r"(e));
  c[l] = d0 + d1 + d2 + d3;
  int i0, i1, i2, i3;
  asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
               "{%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, 0x0;"
               : "=r"(i0), "=r"(i1), "=r"(i2), "=r"(i3)
               : "r"(ia[l]), "r"(ia[l + 32]), "r"(b0), "r"(b1), "r"(0), "r"(1),
                 "r"(2), "r"(3), "r"(e));
  int x0, x1;
  asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc "
               "{%0,%1}, {%2}, {%3}, {%4,%5};"
               : "=r"(x0), "=r"(x1) : "r"(a0), "r"(b0), "r"(i0), "r"(i1));
  unsigned l0, l1, l2, l3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(l0), "=r"(l1), "=r"(l2), "=r"(l3) : "r"(l * 16));
  ic[l] = i0 + i1 + i2 + i3 + x0 + x1 + l0 + l1 + l2 + l3;
}
#endif
