target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [128 x float] zeroinitializer, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare float @llvm.sqrt.f32(float)
declare double @llvm.fma.f64(double, double, double)

define void @axpy(ptr addrspace(1) %out, ptr addrspace(1) %x, ptr addrspace(1) %y, float %a, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t0 = mul i32 %bid, %bdim
  %i = add i32 %t0, %tid
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %done
body:
  %i64 = sext i32 %i to i64
  %px = getelementptr float, ptr addrspace(1) %x, i64 %i64
  %py = getelementptr float, ptr addrspace(1) %y, i64 %i64
  %vx = load float, ptr addrspace(1) %px, align 4
  %vy = load float, ptr addrspace(1) %py, align 4
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  %d = fdiv float %s, 3.0
  %ab = call float @llvm.fabs.f32(float %d)
  %q = call float @llvm.sqrt.f32(float %ab)
  %r = fadd float %q, %d
  %po = getelementptr float, ptr addrspace(1) %out, i64 %i64
  store float %r, ptr addrspace(1) %po, align 4
  br label %done
done:
  ret void
}
declare float @llvm.fabs.f32(float)

define void @reduce(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %counter) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %g = mul i32 %bid, 128
  %gi = add i32 %g, %tid
  %g64 = zext i32 %gi to i64
  %p = getelementptr float, ptr addrspace(1) %in, i64 %g64
  %v = load float, ptr addrspace(1) %p, align 4
  %t64 = zext i32 %tid to i64
  %sp = getelementptr [128 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  store float %v, ptr addrspace(3) %sp, align 4
  call void @llvm.nvvm.barrier0()
  br label %loop
loop:
  %s = phi i32 [ 64, %entry ], [ %s2, %cont ]
  %lt = icmp ult i32 %tid, %s
  br i1 %lt, label %add, label %cont
add:
  %o = add i32 %tid, %s
  %o64 = zext i32 %o to i64
  %op = getelementptr [128 x float], ptr addrspace(3) @tile, i64 0, i64 %o64
  %a1 = load float, ptr addrspace(3) %op, align 4
  %a0 = load float, ptr addrspace(3) %sp, align 4
  %sum = fadd float %a0, %a1
  store float %sum, ptr addrspace(3) %sp, align 4
  br label %cont
cont:
  call void @llvm.nvvm.barrier0()
  %s2 = lshr i32 %s, 1
  %more = icmp ne i32 %s2, 0
  br i1 %more, label %loop, label %fin
fin:
  %z = icmp eq i32 %tid, 0
  br i1 %z, label %w, label %exit
w:
  %r = load float, ptr addrspace(3) @tile, align 4
  %b64 = zext i32 %bid to i64
  %po = getelementptr float, ptr addrspace(1) %out, i64 %b64
  store float %r, ptr addrspace(1) %po, align 4
  %old = atomicrmw add ptr addrspace(1) %counter, i32 1 seq_cst
  br label %exit
exit:
  ret void
}

define void @intmath(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %k) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr i32, ptr addrspace(1) %in, i64 %t64
  %v = load i32, ptr addrspace(1) %p, align 4
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %j2, %loop ]
  %acc = phi i64 [ 1, %entry ], [ %acc2, %loop ]
  %x = add i32 %v, %j
  %q = sdiv i32 %x, 7
  %r = urem i32 %x, 13
  %q64 = sext i32 %q to i64
  %r64 = zext i32 %r to i64
  %m = mul i64 %acc, 31
  %m2 = add i64 %m, %q64
  %m3 = xor i64 %m2, %r64
  %big = icmp sgt i64 %m3, 100000
  %acc2 = select i1 %big, i64 %r64, i64 %m3
  %j2 = add i32 %j, 1
  %c = icmp slt i32 %j2, %k
  br i1 %c, label %loop, label %done
done:
  %d = sitofp i64 %acc2 to double
  %f = call double @llvm.fma.f64(double %d, double 0.5, double 1.25)
  %fi = fptosi double %f to i64
  %po = getelementptr i64, ptr addrspace(1) %out, i64 %t64
  store i64 %fi, ptr addrspace(1) %po, align 8
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @axpy, !"kernel", i32 1}
!1 = !{ptr @reduce, !"kernel", i32 1}
!2 = !{ptr @intmath, !"kernel", i32 1}
