"""fuzzgen_hopper.py - the Hopper family of fuzzgen.py (sm_90, sm_90a;
issue 22: the differential fuzzer grows with each family).

A mixin of fuzzgen.Gen like fuzzgen_tensor.TensorOps: it uses the
generator's registers (src, dsts, dst), random choices and the shared and
global slots of its prolog (%smt: this thread's 16-byte shared slot,
%smb: the shared array, %smo: another thread's slot, %scr: the thread's
16-byte global scratch slot, %a0: its input words). Every statement is
warp-synchronous or waits on other threads, so Gen calls it only from
converged top-level code, and each statement is self-contained (an
mbarrier is initialized, used and invalidated inside it), so that the
minimizer may drop any of them.

What each statement keeps deterministic: one thread (tid 0) initializes,
arms and invalidates the mbarrier between two bar.sync of the CTA; a
bulk copy is waited for (mbarrier parity or bulk-group wait) before
anything reads its destination; shared memory written by the generic
proxy is fenced (fence.proxy.async) before the async proxy reads it;
stmatrix rows go to distinct slots; every thread writes its own slot
before a statement that fills only some slots.
"""


class HopperOps:
    # The host class provides THREADS and the methods named above; it
    # declares the mbarrier and the registers below when self.hopper_used
    # is set (hopper_decls).

    def hopper_decls(self):
        if not getattr(self, 'hopper_used', False):
            return []
        return ['.shared .align 8 .b64 fz_mb;', '.reg .pred %hq;', '.reg .pred %hw;',
                '.reg .b64 %hst;']

    def hopper(self):
        """mbarrier-completed bulk copies into shared memory, bulk stores
        and reductions from shared to global, stmatrix, elect.sync and
        the cluster registers and mapa of a one-CTA cluster."""
        self.hopper_used = True
        c = self.rng.randrange(5)
        if c == 0:
            return self.bulk_load()
        if c == 1:
            return self.bulk_store()
        if c == 2:
            return self.stmatrix()
        if c == 3:
            d = self.dst('r')
            return [f'elect.sync {d}|%hq, 0xffffffff;',
                    f'selp.u32 {self.dst("r")}, {self.src("r", 0)}, {d}, %hq;']
        return self.cluster()

    def read_other_slot(self):
        """bar.sync, then a vector load of a random other thread's slot."""
        k = self.rng.randint(0, self.THREADS - 1)
        return ['bar.sync 0;', f'add.u32 %smo, %tidx, {k};', 'and.b32 %smo, %smo, 63;',
                'shl.b32 %smo, %smo, 4;', 'add.u32 %smo, %smo, %smb;',
                f'ld.shared.v4.u32 {{{", ".join(self.dsts("r", 4))}}}, [%smo];']

    def fill_own_slot(self):
        """Every thread writes its slot (a bulk copy or an stmatrix.x1/x2
        writes only some slots, and shared memory starts undefined), fenced
        for the async proxy, then bar.sync."""
        v = [self.src('r', 0) for _ in range(4)]
        return ['bar.sync 0;', f'st.shared.v4.b32 [%smt], {{{", ".join(v)}}};',
                'fence.proxy.async.shared::cta;', 'bar.sync 0;']

    def bulk_load(self):
        """Thread 0 copies SIZE bytes of its inputs into the shared array
        with cp.async.bulk, completing on an mbarrier that every thread
        waits on with try_wait.parity (or test_wait in a loop)."""
        size = 16 * self.rng.randint(1, self.THREADS)
        wait = self.pick(['try_wait', 'test_wait'])
        again = self.lab()
        expect = self.maybe()
        lines = self.fill_own_slot() + ['setp.eq.u32 %hq, %tidx, 0;',
                 '@%hq mbarrier.init.shared::cta.b64 [fz_mb], 1;',
                 'fence.mbarrier_init.release.cluster;', 'bar.sync 0;']
        if expect:
            lines.append(f'@%hq mbarrier.arrive.expect_tx.shared::cta.b64 %hst, [fz_mb], {size};')
        else:
            lines += [f'@%hq mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [fz_mb], {size};',
                      '@%hq mbarrier.arrive.shared::cta.b64 %hst, [fz_mb];']
        lines += [f'@%hq cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes '
                  f'[fz_sm], [%a0], {size}, [fz_mb];',
                  f'{again}:',
                  f'mbarrier.{wait}.parity.shared::cta.b64 %hw, [fz_mb], 0;',
                  f'@!%hw bra {again};']
        lines += self.read_other_slot()
        lines += ['bar.sync 0;', '@%hq mbarrier.inval.shared::cta.b64 [fz_mb];']
        return lines

    def bulk_store(self):
        """This thread's shared slot to its global scratch slot with a bulk
        copy or a bulk reduction, waited for, then read back."""
        v = [self.src('r', 0) for _ in range(4)]
        # bar.sync first, as every writer of the shared slots: the
        # statement before may still be reading this slot in another warp.
        lines = ['bar.sync 0;', f'st.shared.v4.b32 [%smt], {{{", ".join(v)}}};',
                 'fence.proxy.async.shared::cta;']
        if self.maybe():
            lines.append('cp.async.bulk.global.shared::cta.bulk_group [%scr], [%smt], 16;')
        else:
            op, ty = self.pick([('add', 'u32'), ('min', 'u32'), ('max', 's32'), ('inc', 'u32'),
                                ('dec', 'u32'), ('and', 'b32'), ('or', 'b32'), ('xor', 'b32'),
                                ('add', 'u64'), ('min', 's64')])
            w = [self.src('r', 0) for _ in range(4)]
            lines += [f'st.global.v4.b32 [%scr], {{{", ".join(w)}}};',
                      'fence.proxy.async.global;',
                      f'cp.reduce.async.bulk.global.shared::cta.bulk_group.{op}.{ty} '
                      f'[%scr], [%smt], 16;']
        lines.append('cp.async.bulk.commit_group;')
        if self.maybe():
            # .read only waits until the source may be reused; the global
            # writes are complete after the plain wait.
            lines.append('cp.async.bulk.wait_group.read 0;')
        lines.append('cp.async.bulk.wait_group 0;')
        lines += ['fence.proxy.async.global;',
                  f'ld.global.v4.u32 {{{", ".join(self.dsts("r", 4))}}}, [%scr];']
        return lines

    def stmatrix(self):
        """stmatrix of x1/x2/x4 8x8 b16 matrices whose rows are the
        threads' own slots (every row address once), then a read."""
        n = self.pick([1, 2, 4])
        trans = '.trans' if self.maybe() else ''
        v = [self.src('r', 0) for _ in range(n)]
        lines = self.fill_own_slot() + [
                 f'stmatrix.sync.aligned.m8n8.x{n}{trans}.shared.b16 [%smt], '
                 f'{{{", ".join(v)}}};']
        return lines + self.read_other_slot()

    def cluster(self):
        """The cluster registers and distributed shared memory of the
        implicit one-CTA cluster: mapa to rank 0 is this CTA's own slot."""
        d = self.dst('r')
        lines = ['bar.sync 0;',  # it writes this thread's shared slot
                 f'mov.u32 {d}, {self.pick(["%cluster_ctarank", "%cluster_nctarank", "%clusterid.x", "%cluster_ctaid.x", "%nclusterid.x", "%cluster_nctaid.x"])};']
        a = self.tmp('r')
        lines += [f'mapa.shared::cluster.u32 {a}, %smt, 0;',
                  f'st.shared::cluster.u32 [{a}], {self.src("r", 0)};',
                  f'ld.shared::cluster.u32 {self.dst("r")}, [{a}];',
                  f'getctarank.shared::cluster.u32 {self.dst("r")}, {a};']
        # The address depends on where each compiler puts fz_sm in the
        # shared window: not an output, and not an operand of later
        # statements (tmp keeps it out of the pool).
        self.nooutput.add(a)
        return lines
