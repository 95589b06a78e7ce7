#include <cuda.h>
#include <cooperative_groups.h>
#define A(...) asm volatile(__VA_ARGS__)
__global__ void __cluster_dims__(4, 1, 1) sm90b_k(int* g, unsigned long long* q, const __grid_constant__ CUtensorMap tm, int x, int y, unsigned long long pol, CUtensorMap* tmg) {
  __shared__ alignas(128) int s[2048];
  __shared__ unsigned long long mb[2];
  unsigned sa = (unsigned)__cvta_generic_to_shared(s), mba = (unsigned)__cvta_generic_to_shared(mb);
  unsigned ra, rk, rm;
  A("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(ra) : "r"(sa));
  A("mapa.shared::cluster.u32 %0, %1, 2;" : "=r"(rm) : "r"(mba));
  A("getctarank.shared::cluster.u32 %0, %1;" : "=r"(rk) : "r"(ra));
  unsigned long long gp = (unsigned long long)g, rk2;
  A("getctarank.u64 %0, %1;" : "=r"(*(unsigned*)&rk2) : "l"(gp));
  if (threadIdx.x == 0) {
    A("mbarrier.init.shared::cta.b64 [%0], 2;" :: "r"(mba));
    A("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], 128;" :: "r"(rm));
    A("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], 256;" :: "r"(rm));
    A("mbarrier.complete_tx.shared::cluster.b64 [%0], 64;" :: "r"(rm));
  }
  A("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;");
  A("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" :: "r"(ra), "r"(x), "r"(rm));
  A("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.s32 [%0], {%1, %2}, [%3];" :: "r"(ra + 8), "r"(x), "r"(y), "r"(rm));
  A("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %1, %2}, [%3];" :: "r"(ra + 16), "r"(x), "r"(y), "r"(rm));
  A("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0], %1, [%2];" :: "r"(ra + 32), "l"(pol), "r"(rm));
  A("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];" :: "r"(ra + 48), "r"(x), "r"(rm));
  A("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.max.s32 [%0], %1, [%2];" :: "r"(ra + 52), "r"(x), "r"(rm));
  A("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%0], %1, [%2];" :: "r"(ra + 56), "r"(x), "r"(rm));
  A("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%0], %1, [%2];" :: "r"(ra + 64), "l"(pol), "r"(rm));
  A("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.and.b32 [%0], %1, [%2];" :: "r"(ra + 72), "r"(x), "r"(rm));
  if (threadIdx.x == 0) {
    A("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];" :: "r"(ra + 512), "r"(sa), "r"(rm));
    A("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], 256, [%2], %3;" :: "r"(sa + 1024), "l"(g), "r"(mba), "h"((unsigned short)3));
    A("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [%0], [%1], 256, [%2], %3, %4;" :: "r"(sa + 2048), "l"(g), "r"(mba), "h"((unsigned short)5), "l"(pol));
    A("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" :: "r"(sa), "l"(&tm), "r"(x), "r"(y), "r"(mba), "h"((unsigned short)15));
    A("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1, {%2, %3}], [%4], %5;" :: "r"(sa), "l"(&tm), "r"(x), "r"(y), "r"(mba), "l"(pol));
    A("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %2, %3}], [%4], {%5, %5};" :: "r"(sa), "l"(&tm), "r"(x), "r"(y), "r"(mba), "h"((unsigned short)1));
    A("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint [%0, {%1, %2}], [%3], %4;" :: "l"(&tm), "r"(x), "r"(y), "r"(sa), "l"(pol));
    A("cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(x), "r"(y), "r"(sa));
    A("cp.reduce.async.bulk.tensor.3d.global.shared::cta.and.tile.bulk_group [%0, {%1, %2, %1}], [%3];" :: "l"(&tm), "r"(x), "r"(y), "r"(sa));
    A("cp.reduce.async.bulk.tensor.2d.global.shared::cta.inc.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&tm), "r"(x), "r"(y), "r"(sa));
    A("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [%0], [%1], 256;" :: "l"(g), "r"(sa));
    A("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%0], [%1], 256;" :: "l"(g), "r"(sa));
    A("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 256;" :: "l"(g), "r"(sa));
    A("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u64 [%0], [%1], 256;" :: "l"(g), "r"(sa));
    A("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], 256, [%2];" :: "r"(ra), "r"(sa), "r"(rm));
    A("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], 256, %2;" :: "l"(g), "r"(sa), "l"(pol));
    A("cp.async.bulk.prefetch.L2.global.L2::cache_hint [%0], 256, %1;" :: "l"(g), "l"(pol));
    A("cp.async.bulk.prefetch.tensor.3d.L2.global.tile [%0, {%1, %2, %1}];" :: "l"(&tm), "r"(x), "r"(y));
    A("prefetch.tensormap [%0];" :: "l"(&tm));
    A("fence.proxy.tensormap::generic.release.gpu;");
    A("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(tmg));
    A("cp.async.bulk.commit_group; cp.async.bulk.wait_group.read 0;");
  }
  A("{ .reg .pred p; W: mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 p, [%0], 0; @!p bra W; }" :: "r"(mba));
  A("{ .reg .pred p; W2: mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%0], 1; @!p bra W2; }" :: "r"(mba));
  A("{ .reg .pred p; .reg .b64 t; mbarrier.arrive.relaxed.cluster.shared::cta.b64 t, [%0], 1; mbarrier.test_wait.shared::cta.b64 p, [%0], t; }" :: "r"(mba));
  A("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];" :: "r"(rm));
  A("fence.proxy.async.shared::cluster;");
  A("fence.mbarrier_init.release.cluster;");
  int v = s[threadIdx.x];
  A("multimem.red.relaxed.sys.global.add.u32 [%0], %1;" :: "l"(g), "r"(v));
  A("multimem.st.relaxed.sys.global.f32 [%0], %1;" :: "l"(g + 4), "f"((float)v));
  unsigned lr; A("multimem.ld_reduce.relaxed.sys.global.add.u32 %0, [%1];" : "=r"(lr) : "l"(g + 8));
  unsigned lr2; A("multimem.ld_reduce.weak.global.min.s32 %0, [%1];" : "=r"(lr2) : "l"(g + 12));
  float lf; A("multimem.ld_reduce.relaxed.gpu.global.add.f32 %0, [%1];" : "=f"(lf) : "l"(g + 16));
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  A("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" :: "l"(tmg), "l"(pol));
  A("tensormap.replace.tile.rank.global.b1024.b32 [%0], 2;" :: "l"(tmg));
  A("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 1, %1;" :: "l"(tmg), "r"(x));
  A("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 0, %1;" :: "r"(sa), "r"(y));
  A("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], 3;" :: "l"(tmg));
  A("tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%0], 1;" :: "l"(tmg));
#endif
  g[threadIdx.x] = v + ra + rk + (int)rk2 + lr + lr2 + (int)lf;
}
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)
__global__ void wgmma2(float* o, unsigned long long da, unsigned long long db, unsigned* sp) {
  float d[64] = {};
#define R8(b) "+f"(d[b]), "+f"(d[b+1]), "+f"(d[b+2]), "+f"(d[b+3]), "+f"(d[b+4]), "+f"(d[b+5]), "+f"(d[b+6]), "+f"(d[b+7])
  A("wgmma.fence.sync.aligned;");
  A("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0,%1,%2,%3}, %4, %5, 1, 1, 1, 1, 1;" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(da), "l"(db));
  A("wgmma.mma_async.sync.aligned.m64n24k8.f32.tf32.tf32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11}, %12, %13, 1, -1, 1;" : R8(0), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]) : "l"(da), "l"(db));
  A("wgmma.mma_async.sync.aligned.m64n32k32.f16.e5m2.e4m3 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 1, 1, 1;" : "+r"(*(unsigned*)&d[0]), "+r"(*(unsigned*)&d[1]), "+r"(*(unsigned*)&d[2]), "+r"(*(unsigned*)&d[3]), "+r"(*(unsigned*)&d[4]), "+r"(*(unsigned*)&d[5]), "+r"(*(unsigned*)&d[6]), "+r"(*(unsigned*)&d[7]) : "l"(da), "l"(db));
  A("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, 0, 1, 1, 0, 0;" : R8(0), R8(8), R8(16), R8(24) : "l"(da), "l"(db));
  A("wgmma.mma_async.sp.sync.aligned.m64n16k32.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, %10, 0, 1, 1, 1, 0, 0;" : R8(0) : "l"(da), "l"(db), "r"(sp[0]));
  A("wgmma.mma_async.sync.aligned.m64n8k32.s32.u8.u8.satfinite {%0,%1,%2,%3}, %4, %5, 1;" : "+r"(*(int*)&d[0]), "+r"(*(int*)&d[1]), "+r"(*(int*)&d[2]), "+r"(*(int*)&d[3]) : "l"(da), "l"(db));
  A("wgmma.commit_group.sync.aligned; wgmma.wait_group.sync.aligned 0;");
  float s = 0; for (int i = 0; i < 64; i++) s += d[i];
  o[threadIdx.x] = s;
}
#endif
