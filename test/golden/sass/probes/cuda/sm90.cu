#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cuda.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2, 1, 1) cluster_k(int* o) {
  __shared__ int s[256];
  auto cl = cg::this_cluster();
  s[threadIdx.x] = threadIdx.x;
  cl.sync();
  int* remote = cl.map_shared_rank(s, cl.block_rank() ^ 1);
  int v = remote[threadIdx.x];
  cl.sync();
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]), ra;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(sa), "r"(1));
  int w; asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(w) : "r"(ra));
  asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(ra), "r"(v));
  asm volatile("red.shared::cluster.add.u32 [%0], %1;" :: "r"(ra), "r"(v));
  int q; asm volatile("atom.shared::cluster.cas.b32 %0, [%1], %2, %3;" : "=r"(q) : "r"(ra), "r"(v), "r"(w));
  asm volatile("barrier.cluster.arrive;"); asm volatile("barrier.cluster.wait;");
  asm volatile("barrier.cluster.arrive.relaxed.aligned;"); asm volatile("barrier.cluster.wait.aligned;");
  asm volatile("barrier.cluster.arrive.release;"); asm volatile("barrier.cluster.wait.acquire;");
  unsigned cr, cn, cid, cctaid;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(cr)); asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(cn));
  asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid)); asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(cctaid));
  unsigned isc; asm volatile("{ .reg .pred p; isspacep.shared::cluster p, %1; selp.u32 %0,1,0,p; }" : "=r"(isc) : "l"(remote));
  asm volatile("fence.acq_rel.cluster;"); asm volatile("fence.sc.cluster;"); asm volatile("fence.proxy.async;");
  asm volatile("fence.proxy.async.shared::cta;"); asm volatile("fence.proxy.async.global;");
  asm volatile("fence.mbarrier_init.release.cluster;");
  o[threadIdx.x] = v + w + q + cr + cn + cid + cctaid + isc;
}
__global__ void misc90(int* o, int n) {
  asm volatile("griddepcontrol.wait;");
  unsigned e, lane;
  asm volatile("{ .reg .pred p; elect.sync %0|p, 0xffffffff; selp.u32 %1,1,0,p; }" : "=r"(lane), "=r"(e));
  unsigned e2;
  asm volatile("{ .reg .pred p; elect.sync _|p, %1; selp.u32 %0,1,0,p; }" : "=r"(e2) : "r"(n));
  o[threadIdx.x] = e + lane + e2;
  asm volatile("griddepcontrol.launch_dependents;");
}
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)
__global__ void __launch_bounds__(256) maxnreg_k(int* o, int n) {
  if (threadIdx.x < 128) { asm volatile("setmaxnreg.dec.sync.aligned.u32 40;"); o[threadIdx.x] = n; }
  else { asm volatile("setmaxnreg.inc.sync.aligned.u32 232;"); o[threadIdx.x] = n + 1; }
}
__global__ void bulk_k(const int* g, int* o, const __grid_constant__ CUtensorMap tm, const __grid_constant__ CUtensorMap tm3, int x, int y) {
  __shared__ alignas(128) int s[4096];
  __shared__ unsigned long long mb;
  unsigned sa = (unsigned)__cvta_generic_to_shared(s), mba = (unsigned)__cvta_generic_to_shared(&mb);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(mba));
  asm volatile("fence.proxy.async.shared::cta;");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4096;" :: "r"(mba));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];" :: "r"(sa), "l"(g), "r"(mba));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], 1024, [%2], %3;" :: "r"(sa + 1024), "l"(g + 256), "r"(mba), "l"(0ull));
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];" :: "r"(sa), "l"(&tm), "r"(x), "r"(mba));
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(sa), "l"(&tm), "r"(x), "r"(y), "r"(mba));
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" :: "r"(sa), "l"(&tm3), "r"(x), "r"(y), "r"(x), "r"(mba));
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];" :: "r"(sa), "l"(&tm3), "r"(x), "r"(y), "r"(x), "r"(y), "r"(mba));
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" :: "r"(sa), "l"(&tm3), "r"(x), "r"(y), "r"(x), "r"(y), "r"(x), "r"(mba));
  #if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};" :: "r"(sa), "l"(&tm3), "r"(x), "r"(y), "r"(x), "r"(mba), "h"((short)1));
#endif
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" :: "l"(&tm), "r"(x), "r"(y));
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], 256;" :: "l"(g));
  }
  asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }" :: "r"(mba));
  asm volatile("{ .reg .pred p; W2: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 1, 1000; @!p bra W2; }" :: "r"(mba));
  asm volatile("{ .reg .pred p; .reg .b64 t; mbarrier.arrive.shared::cta.b64 t, [%0]; W3: mbarrier.try_wait.shared::cta.b64 p, [%0], t; @!p bra W3; }" :: "r"(mba));
  o[threadIdx.x] = s[threadIdx.x];
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(x), "r"(y), "r"(sa));
    asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];" :: "l"(&tm), "r"(x), "r"(sa));
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];" :: "l"(&tm3), "r"(x), "r"(y), "r"(x), "r"(sa));
    asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(x), "r"(y), "r"(sa));
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 512;" :: "l"(o), "r"(sa));
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 512;" :: "l"(o), "r"(sa));
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;");
    asm volatile("cp.async.bulk.wait_group 1;");
  }
}
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)
__global__ void wgmma_k(float* o, unsigned long long da, unsigned long long db, int* oi) {
  float d[32] = {};
  asm volatile("wgmma.fence.sync.aligned;");
#define R8(b) "+f"(d[b]), "+f"(d[b+1]), "+f"(d[b+2]), "+f"(d[b+3]), "+f"(d[b+4]), "+f"(d[b+5]), "+f"(d[b+6]), "+f"(d[b+7])
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 1, 1, 1, 0, 1;" : R8(0) : "l"(da), "l"(db));
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 1, -1, -1, 1, 0;" : R8(0) : "l"(da), "l"(db));
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 0, 1, 1;" : R8(0) : "l"(da), "l"(db));
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e5m2 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 1, 1, 1;" : R8(0) : "l"(da), "l"(db));
  asm volatile("wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, %16, %17, 1, 1, 1, 1, 1;" : R8(0), R8(8) : "l"(da), "l"(db));
  unsigned h[4] = {};
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16 {%0,%1,%2,%3}, %4, %5, 1, 1, 1, 0, 0;" : "+r"(h[0]), "+r"(h[1]), "+r"(h[2]), "+r"(h[3]) : "l"(da), "l"(db));
  unsigned ar0 = oi[0], ar1 = oi[1], ar2 = oi[2], ar3 = oi[3];
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, 1, 1, 1, 1;" : R8(0) : "r"(ar0), "r"(ar1), "r"(ar2), "r"(ar3), "l"(db));
  int di[8] = {};
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.u8 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 1;" : "+r"(di[0]), "+r"(di[1]), "+r"(di[2]), "+r"(di[3]), "+r"(di[4]), "+r"(di[5]), "+r"(di[6]), "+r"(di[7]) : "l"(da), "l"(db));
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k32.s32.u8.s8.satfinite {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 0;" : "+r"(di[0]), "+r"(di[1]), "+r"(di[2]), "+r"(di[3]), "+r"(di[4]), "+r"(di[5]), "+r"(di[6]), "+r"(di[7]) : "l"(da), "l"(db));
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k256.s32.b1.b1.and.popc {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 1;" : "+r"(di[0]), "+r"(di[1]), "+r"(di[2]), "+r"(di[3]), "+r"(di[4]), "+r"(di[5]), "+r"(di[6]), "+r"(di[7]) : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 1;");
  asm volatile("wgmma.wait_group.sync.aligned 0;");
  float s = 0; for (int i = 0; i < 32; i++) s += d[i];
  o[threadIdx.x] = s + h[0] + h[3] + di[0] + di[7];
}
#endif
