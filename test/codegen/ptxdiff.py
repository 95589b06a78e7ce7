"""ptxdiff.py - plumbing shared by the differential scripts (diff-vs-ptxas.py,
fuzz-diff.py): compile a PTX file with ptxas or ptxas-alt, retarget a PTX
text, and run a launch spec on two cubins in the emulator
(`sass-run OURS --spec S --compare REF --check-hazards`).

Python 3 standard library only.
"""
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Seconds one compile or one emulator run may take before it counts as a
# hang ('timeout'): the slowest spec runs in about 10 s, the slowest corpus
# compile in about 5 s on the shared 2-core machine, so a hang costs a
# minute, not ten. PTXDIFF_TIMEOUT overrides both (a loaded machine).
TIMEOUT = float(os.environ.get('PTXDIFF_TIMEOUT', '60'))


def retarget(text, arch):
    """The PTX text with its `.target` line set to ARCH."""
    return re.sub(r'^\.target \S+', '.target ' + arch, text, flags=re.M)


def _classify(cmd, timeout, ok, failed):
    """Runs CMD; returns (status, output): OK or FAILED by the exit code,
    'crash' when killed by a signal, 'timeout' past TIMEOUT seconds."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 'timeout', f'{os.path.basename(cmd[0])} ran over {timeout} s'
    text = (p.stdout + p.stderr).strip()
    if p.returncode < 0 or p.returncode > 128:
        return 'crash', text
    return (ok if p.returncode == 0 else failed), text


def compile_ptx(tool, arch, ptx, out, opts=('-O3',), timeout=None):
    """Compile PTX with TOOL (ptxas or ptxas-alt) for ARCH into OUT.

    Returns (status, text): status is 'ok', 'error' (non-zero exit with a
    diagnostic), 'crash' (killed by a signal) or 'timeout'."""
    return _classify([tool, '-arch=' + arch] + list(opts) + [ptx, '-o', out],
                     timeout or TIMEOUT, 'ok', 'error')


def run_compare(sass_run, ours, spec, ref, timeout=None, hazards=True):
    """Run SPEC on OURS and REF in the emulator with the hazard check.

    Returns (status, text): 'equal', 'differ' (outputs, hazards or a
    failed launch: exit 1), 'crash' or 'timeout'."""
    return _classify([sass_run, ours, '--spec', spec, '--compare', ref] +
                     (['--check-hazards'] if hazards else []),
                     timeout or TIMEOUT, 'equal', 'differ')


def hazards(sass_hazards, cubin, timeout=None):
    """Static hazard check of one cubin: (clean, report text)."""
    timeout = timeout or TIMEOUT
    try:
        p = subprocess.run([sass_hazards, cubin], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f'sass-hazards ran over {timeout} s'
    return p.returncode == 0, (p.stdout + p.stderr).strip()
