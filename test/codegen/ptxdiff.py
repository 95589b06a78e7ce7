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


def compile_ptx(tool, arch, ptx, out, opts=('-O3',), timeout=300):
    """Compile PTX with TOOL (ptxas or ptxas-alt) for ARCH into OUT.

    Returns (status, text): status is 'ok', 'error' (non-zero exit with a
    diagnostic), 'crash' (killed by a signal) or 'timeout'."""
    return _classify([tool, '-arch=' + arch] + list(opts) + [ptx, '-o', out],
                     timeout, 'ok', 'error')


def run_compare(sass_run, ours, spec, ref, timeout=600, hazards=True):
    """Run SPEC on OURS and REF in the emulator with the hazard check.

    Returns (status, text): 'equal', 'differ' (outputs, hazards or a
    failed launch: exit 1), 'crash' or 'timeout'."""
    return _classify([sass_run, ours, '--spec', spec, '--compare', ref] +
                     (['--check-hazards'] if hazards else []),
                     timeout, 'equal', 'differ')


def hazards(sass_hazards, cubin, timeout=300):
    """Static hazard check of one cubin: (clean, report text)."""
    try:
        p = subprocess.run([sass_hazards, cubin], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f'sass-hazards ran over {timeout} s'
    return p.returncode == 0, (p.stdout + p.stderr).strip()
