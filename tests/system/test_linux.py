"""The test kernel (sw/linux: the pinned Debian linux-source, tinyconfig plus
config/*.config, our series for the port, a nolibc /init built in) under
OpenSBI. Its /init runs the workloads of sw/linux/init and powers off: the
user-space stale-TLB probe (writer threads on the other CPUs store into a
region while the main thread unmaps it; no store may land after a writer
saw the unmap, nor in the pages the kernel hands out again), madvise and
process_madvise over small regions and over 64 KiB folios while other CPUs
touch them, and
reclaim of a mapped file and of anonymous memory under a memory cgroup
limit. Every workload checks its data; the run's exit status is /init's
verdict, through the test finisher."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness import BOOT_IPIS_PER_HART, BUILD, ROOT, Run, assert_no_stale_translation, assert_scoreboard_checked, \
    counters, describe, firmware_with_kernel, msip_per_hart, probe, run_qemu, run_sim, sim_summary, unit_requests, verilog
from linux_init import bench_runs, workload_counts


def kernel_ipis(r):
    """The IPIs the kernel counted in /proc/interrupts since boot."""
    m = re.search(r"^init: kernel IPIs since boot: (\d+)$", r.stdout, re.M)
    assert m, describe(r)
    return int(m.group(1))


def rfence_calls(r):
    """OpenSBI's own count of the SBI RFENCE calls (remote SFENCE.VMA) the
    harts made during /init's phases: its PMU firmware counters, which /init
    reads through perf and prints on every "phase NAME end" line."""
    calls = re.findall(r"^phase \S+ end .*\bsbi_rfence_calls=(\d+)", r.stdout, re.M)
    assert calls, describe(r)
    return sum(map(int, calls))


def test_linux_series_is_clean():
    """Every patch is listed and signed off, the series applies to the pinned
    tarball, and each patch is clean under the tree's scripts/checkpatch.pl."""
    r = subprocess.run([str(ROOT / "sw/linux/check-series.sh")], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    series = [l for l in (ROOT / "sw/linux/series").read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert f"{len(series)} patches apply" in r.stdout, r.stdout
    assert r.stdout.count("clean: ") == len(series), r.stdout


def test_stale_probe_passes_on_qemu():
    """QEMU has no unit: the port flushes by SBI RFENCE over IPIs (its
    fallback path) and may leave no stale translation. (Stock Linux runs
    the same workloads in make linux-demo; its kernel build would cost
    make test two cores for some minutes.)"""
    r = run_qemu(4, bios=firmware_with_kernel("unit", "port") / "fw_payload.bin", timeout=300)
    assert r.status == 0, describe(r)
    assert_no_stale_translation(r, writers=3)
    assert rfence_calls(r) > 0, describe(r)
    c = counters(r)
    assert c["requests"] == 0 and c["direct"] == 0 and c["sbi_rfence"] > 0, describe(r)
    # the benchmarks ran after the workloads, each held its loop's shape
    assert_tlb_flush2_shape(r, threads=4)


def test_stale_probe_catches_a_firmware_that_skips_remote_fences():
    """With OpenSBI's targets acknowledging RFENCE without flushing
    (sw/opensbi/mutants/skip-remote-sfence.patch), writers keep storing
    through stale translations: the probe must fail the run."""
    r = run_qemu(4, bios=firmware_with_kernel("mutant-skip-remote-sfence", "port") / "fw_payload.bin",
                 timeout=300)
    assert r.status == 1, describe(r)
    p = probe(r)
    assert p["late"] > 0 or p["foreign"] > 0, describe(r)


def test_port_flushes_by_ipi_when_requests_fail():
    """A firmware whose batched extension carries out some FLUSH calls and
    fails the others, at random, without flushing anything: half of the
    failures as errors, half as timeouts (sw/opensbi/mutants/flush-flaky.patch,
    a flaky device). The port must end every failure in a full flush by IPI
    of its own (never SBI RFENCE, which our firmware would hand to the same
    device), count it, and leave no stale translation, so every workload
    passes. Both kinds arrive as themselves, counted apart (OpenSBI 1.6's
    ecall layer turned SBI_ERR_TIMEOUT, beyond its SBI_LAST_ERR, into
    SBI_ERR_FAILED and printed a line in the middle of /init's output until
    the series' patch 0008).
    The pending-page log's path usually sends pages here too, failures
    among them; QEMU's timing makes that a matter of chance, so only the
    SoC run (deterministic) requires it."""
    r = run_qemu(4, bios=firmware_with_kernel("mutant-flush-flaky", "port") / "fw_payload.bin", timeout=300)
    assert r.status == 0, describe(r)
    assert_no_stale_translation(r, writers=3)
    c = counters(r)
    assert c["requests"] > 0 and c["errors"] > 0 and c["timeouts"] > 0, describe(r)
    assert c["ipi_fallbacks"] == c["errors"] + c["timeouts"], describe(r)
    # No remote fence went to the firmware as RFENCE: the port counted
    # none, and the remote fences OpenSBI counted (its PMU firmware events)
    # are no more than the FLUSH calls the mutant carried out with them.
    assert c["sbi_rfence"] == 0 and rfence_calls(r) <= c["requests"], describe(r)


def flaky_debug_run(k_flavor, fw_flavor="mutant-flush-flaky"):
    """/init's checks (the quick workloads, no benchmark) on a debug build of
    the port under the flaky firmware of the test above (or one applied
    after it), so that requests fail, and fall back, from wherever they
    come. Every workload passes and the kernel log holds no BUG or WARNING
    (/init fails on either)."""
    r = run_qemu(4, bios=firmware_with_kernel(fw_flavor, k_flavor) / "fw_payload.bin", timeout=600)
    assert r.status == 0, describe(r)
    assert_no_stale_translation(r, writers=3)
    c = counters(r)
    assert c["requests"] > 0 and c["errors"] > 0 and c["timeouts"] > 0, describe(r)
    assert c["ipi_fallbacks"] == c["errors"] + c["timeouts"], describe(r)
    return c


def test_the_port_on_preempt_rt():
    """Issue 55, item 3: the port built on PREEMPT_RT
    (sw/linux/config/rt.config), where spinlock_t sleeps, with
    DEBUG_ATOMIC_SLEEP, which reports a sleeping lock taken in atomic
    context. The pending-page log, whose lock the port takes inside
    get_cpu(), was used (pending flushes sent or found empty). Before the
    log's lock was a raw spinlock, the kernel reported "BUG: sleeping
    function called from invalid context"."""
    c = flaky_debug_run("rt")
    assert c["pending_requests"] + c["pending_none"] > 0, c


def test_the_port_flushes_from_interrupt_context():
    """Issue 55, item 4: the port with DEBUG_PAGEALLOC
    (sw/linux/config/pagealloc.config), which flushes a kernel range on
    every allocation and free, from interrupts and softirqs too: requests
    came from interrupt context, and some of their fallbacks went by SBI
    RFENCE, the way left there. Before the series took them, the driver
    warned on the first request from an interrupt.

    Issue 55, item 5, in the same boot: the firmware also denies S-mode
    the cycle counter (sw/opensbi/mutants/deny-cycle.patch, applied after
    flush-flaky), which the driver times its requests with. It must find
    that out at init and leave every request's wait unmeasured, counted as
    such, rather than read the counter. Before it probed the counter, the
    first request died with "Oops - illegal instruction"."""
    c = flaky_debug_run("pagealloc", "mutant-deny-cycle")
    assert c["from_interrupts"] > 0 and 0 < c["sbi_rfence"] <= c["ipi_fallbacks"], c
    assert c["wait_cycles"] == 0 and c["wait_unmeasured"] >= c["requests"] > 0, c


@pytest.mark.long
def test_port_falls_back_when_the_unit_gives_up_on_the_soc():
    """Issue 55, item 2: the port on the 2-hart SoC submitting on its hart's
    channel directly, under a firmware that sets the unit's TIMEOUT to 8
    cycles (sw/opensbi/mutants/tiny-timeout.patch), so that the unit gives
    up on targets that are slow to take a command or acknowledge
    (ERR_TIMEOUT) and on lists it cannot read at once (ERR_LIST_TIMEOUT,
    after a full flush). Every such request must end in the kernel's own
    flush by IPI, counted, with no remote fence sent as SBI RFENCE, and the
    probes must find nothing stale; the scoreboard, which knows which
    targets a request gave up on, must find no violation."""
    r = run_sim(2, firmware_with_kernel("mutant-tiny-timeout", "quick") / "fw_payload.elf",
                "+max-cycles=400000000", timeout=3600)
    assert r.status == 0, describe(r)
    assert_no_stale_translation(r, writers=1)
    c = counters(r)
    assert c["direct"] > 0 and c["timeouts"] > 0 and c["errors"] > 0, describe(r)
    assert c["ipi_fallbacks"] == c["errors"] + c["timeouts"] and c["sbi_rfence"] == 0, describe(r)
    assert_scoreboard_checked(r, requests=c["requests"])


def test_port_flushes_by_the_unit_on_the_soc(tmp_path):
    """The port on the 2-hart SoC with the unit's firmware: it boots to /init,
    which runs its workloads shorter here (8 probe rounds, no 64 KiB folio
    phases, one reclaim round; make linux-demo runs them whole), the probe
    passes, and every remote flush went to the unit (none by SBI
    RFENCE, no error), the accessed bits aging cleared among them. The
    firmware hands each hart's supervisor its channel, so every request went
    there directly, with no SBI call (on QEMU, which has no unit, none
    does). The firmware sets the unit's CEILING above any request, so that
    no range is flushed whole for being long: what the entries cover is all
    the probes get (the moved page table needs NONLEAF, patch 0002).

    After the workloads /init writes the snapshot command and runs a short
    benchmark (will-it-scale's tlb_flush2, a window of 1.5 M cycles, its
    flushes checked against the loop's shape): the harness forks
    there a child for each of two seeds of memory jitter (make
    linux-bench's samples, short), and each child's whole run, the boot it
    shares with the other included, must pass every check below, its
    scoreboard (carried across the fork) included; the two benchmarks must
    differ in cycles, so the jitter reached them."""
    r = run_sim(2, firmware_with_kernel("unit-ceiling", "quick") / "fw_payload.elf", "+max-cycles=300000000",
                "+timestamps", "+mem-jitter=8", "+fork-seeds=1,2", f"+fork-logs={tmp_path}", timeout=3000)
    assert r.status == 0, describe(r)
    assert "init: snapshot" not in r.stdout and "phase reclaim end" in r.stdout, describe(r)
    cycles = set()
    for seed in (1, 2):
        out = r.stdout + (tmp_path / f"seed-{seed}.out").read_text()
        child = Run(0, STAMP.sub("", out), (tmp_path / f"seed-{seed}.err").read_text())
        assert sim_summary(child.stderr)[1] == 0, describe(child)
        # the harness's IPI count where /init printed the kernel's
        at = re.search(r"^\[\s*\d+ msip ([\d ]+?)(?: [a-z]+(?: \d+)+)*\] init: kernel IPIs since boot: \d+$", out, re.M)
        assert at, describe(child)
        check_port_on_the_soc(child, [int(n) for n in at.group(1).split()])
        assert_tlb_flush2_shape(child)
        begin, done = (re.search(rf"^\[\s*(\d+) [^\]]*\] phase tlb-flush2-1p {what}$", out, re.M) for what in ("begin", "done"))
        assert begin and done, describe(child)
        cycles.add(int(done.group(1)) - int(begin.group(1)))
    assert len(cycles) == 2, cycles


def assert_tlb_flush2_shape(r, threads=2):
    """will-it-scale's tlb_flush2 loop, as the kernel counted its flushes
    (debugfs tlb_flush_kinds, the phase's end line): one remote flush of a
    single page an iteration, no range, a long one only for the munmap
    every 256 iterations, and a whole one at most for each madvise that
    overlapped another thread's (and what else the kernel flushed in the
    phase: 2% of a loop at most). Every thread counted loops in the
    window, and the benchmark itself found the same shape, as did every
    other benchmark the run had."""
    runs = bench_runs(r.stdout)
    run = runs.get(("tlb-flush2", 1))
    assert run and len(run["threads"]) == threads and all(n > 0 and k > 0 for n, k in run["threads"]), describe(r)
    end = re.search(r"^phase tlb-flush2-1p end (.*)$", r.stdout, re.M)
    assert end, describe(r)
    kinds = {k: int(v) for k, v in (w.split("=", 1) for w in end.group(1).split())}
    loops = run["loops"]
    assert loops <= kinds["remote_page"] <= 1.05 * loops, (kinds, loops)
    assert kinds["remote_range"] <= 0.02 * loops, (kinds, loops)
    assert kinds["remote_long"] <= 1 + loops / 256 + 0.02 * loops, (kinds, loops)
    # a whole flush for each madvise that overlapped another's (mm_tlb_flush_nested()), at most one a loop
    assert kinds["remote_all"] <= 1.02 * loops + 8, (kinds, loops)
    assert run["shape_held"], describe(r)
    assert all(v["shape_held"] for v in runs.values()), {k: v["shape"] for k, v in runs.items()}


# The harness's +timestamps prefix of a console line.
STAMP = re.compile(r"^\[\s*\d+ msip [^\]]*\] ", re.M)


def check_port_on_the_soc(r, msip_at_count):
    """Every check of the SoC run (one child's whole run); msip_at_count:
    the harness's IPIs per hart when /init printed the kernel's count."""
    assert_no_stale_translation(r, writers=1)
    c = counters(r)
    assert c["requests"] > 0 and c["errors"] == 0 and c["sbi_rfence"] == 0, describe(r)
    assert c["direct"] == c["requests"], describe(r)
    # The firmware leaves S-mode the cycle counter here: every request's
    # wait was measured (issue 55, item 5: the driver probes the counter).
    assert c["wait_cycles"] > 0 and c["wait_unmeasured"] == 0, describe(r)
    # The hardware's side of the same count: the scoreboard saw at least
    # every request the kernel counted go through the unit (the firmware's
    # own come on top), checked the run's translated accesses against
    # them, and could trace every one.
    sb = assert_scoreboard_checked(r, requests=c["requests"])
    # ... and the unit's own register counted the same requests complete
    # (CTR_REQUESTS, read by the harness at the end; a count kept apart from
    # the scoreboard's probes).
    assert unit_requests(r) == sb["requests"], (unit_requests(r), sb)
    # The headline's own instrument: the harness counts every machine
    # software interrupt raised on each hart (the CLINT's msip). Every one
    # is an IPI the kernel sent for its own reasons (rescheduling, function
    # calls: /proc/interrupts, which /init prints at the end) or one the
    # firmware sent: at boot, to start the other harts (at most
    # BOOT_IPIS_PER_HART a hart), and for RFENCE, which this run must not
    # need at all. The two counts are compared where /init printed the
    # kernel's (the +timestamps prefix of that line): the power-off after
    # it sends IPIs of its own (3 in the run of 2026-11-27), counted by the
    # harness at the end but after /init read /proc/interrupts.
    msip = msip_per_hart(r)
    assert len(msip) == len(msip_at_count) == 2 and sum(msip) >= sum(msip_at_count) > 0, describe(r)
    assert sum(msip_at_count) - kernel_ipis(r) <= BOOT_IPIS_PER_HART * len(msip), (msip_at_count, kernel_ipis(r))
    # OpenSBI's own count agrees: no remote fence came to it as RFENCE.
    assert rfence_calls(r) == 0, describe(r)
    # Patch 0004: flush_tlb_batched_pending() found its pages flushed
    # already instead of flushing the whole mm ...
    assert c["pending_none"] > 0, describe(r)
    # ... and the pending workload's zappers met reclaim's unflushed pages,
    # and the pending path sent them (and waited for them).
    assert c["pending_requests"] > 0, describe(r)
    # Patch 0007 (on in the test kernel): reclaim's aging flushed the
    # accessed bits it cleared.
    assert c["young_requests"] > 0 and c["young_pages"] >= c["young_requests"], describe(r)
    # Patch 0002: ranges that may have changed page tables (mremap's moved
    # PMD among them) went per VA with NONLEAF.
    assert c["nonleaf"] > 0, describe(r)


DEFINE = re.compile(r"^\+#define (TLBSD_\w+)\s+(.+?)\s*(?:/\*.*)?$", re.M)


def linux_register_defines():
    """The unit's constants as the Linux series defines them (the last patch
    that defines a name wins), evaluated: numbers, BIT_ULL, GENMASK_ULL."""
    found = {}
    for patch in sorted((ROOT / "sw/linux/patches").glob("*.patch")):
        found.update(DEFINE.findall(patch.read_text()))
    values = {}
    for name, text in found.items():
        if m := re.fullmatch(r"BIT_ULL\((\d+)\)", text):
            values[name] = 1 << int(m[1])
        elif m := re.fullmatch(r"GENMASK_ULL\((\d+), (\d+)\)", text):
            values[name] = (1 << int(m[1]) + 1) - (1 << int(m[2]))
        elif re.fullmatch(r"0x[0-9a-fA-F]+|\d+", text):
            values[name] = int(text, 0)
    return values


# The series' TLBSD_ constants that are the kernel's own choices, not the unit's.
KERNEL_CHOICES = {"TLBSD_RANGE_ENTRIES", "TLBSD_BATCH_ENTRIES", "TLBSD_BATCH_MMS", "TLBSD_MM_LOG_ENTRIES",
                  "TLBSD_CONTEXTS"}


def test_linux_driver_agrees_with_the_register_map():
    """The Linux series restates the unit's channel registers, fields, codes
    and entry format (a kernel does not include the generated header): every
    value must be the generated register map's (scripts/shootdown_regs.py),
    and every other constant the series defines must be one of the kernel's
    own choices, so that none escapes the comparison."""
    import shootdown_regs as regs

    def mask(f):
        return ((1 << f.bits) - 1) << f.lsb

    want = {
        "TLBSD_CH_TARGETS": regs.CH_TARGETS, "TLBSD_CH_LIST": regs.CH_LIST, "TLBSD_CH_COUNT": regs.CH_COUNT,
        "TLBSD_CH_SUBMIT": regs.CH_SUBMIT, "TLBSD_CH_STATUS": regs.CH_STATUS, "TLBSD_CH_ERROR": regs.CH_ERROR,
        "TLBSD_CH_FAILED": regs.CH_FAILED, "TLBSD_CH_ERRORS": regs.CH_ERRORS, "TLBSD_PAGE": regs.PAGE_BYTES,
        "TLBSD_SUBMIT_BUSY": regs.SUBMIT_BUSY, "TLBSD_ERR_TIMEOUT": regs.ERR_TIMEOUT,
        "TLBSD_STATUS_DONE": mask(regs.CH_STATUS_DONE),
        "TLBSD_KIND_VA_ASID": regs.KIND_VA_ASID, "TLBSD_KIND_VA_ALL": regs.KIND_VA_ALL,
        "TLBSD_KIND_ASID": regs.KIND_ASID, "TLBSD_KIND_ALL": regs.KIND_ALL,
        "TLBSD_SIZE_4K": regs.SIZE_4K, "TLBSD_SIZE_2M": regs.SIZE_2M, "TLBSD_SIZE_1G": regs.SIZE_1G,
        "TLBSD_ENTRY_MAX_PAGES": regs.ENTRY_MAX_PAGES, "TLBSD_ENTRY_NONLEAF": mask(regs.ENTRY_NONLEAF),
        "TLBSD_ENTRY_VA_MASK": mask(regs.ENTRY_VA), "TLBSD_ENTRY_PAGES_SHIFT": regs.ENTRY_PAGES.lsb,
        "TLBSD_ENTRY_ASID_SHIFT": regs.ENTRY_ASID.lsb,
    }
    have = linux_register_defines()
    assert {k: have.get(k) for k in want} == want
    assert set(have) - KERNEL_CHOICES == set(want), set(have) ^ (set(want) | KERNEL_CHOICES)


BINDING = "Documentation/devicetree/bindings/riscv/tlb-shootdown,batched.yaml"


def binding_from_series():
    """The binding's YAML, as the series' patch creates it."""
    for patch in sorted((ROOT / "sw/linux/patches").glob("*.patch")):
        lines, inside = [], False
        for line in patch.read_text().splitlines():
            if line.startswith("+++ "):
                inside = line == f"+++ b/{BINDING}"
            elif inside and line.startswith("diff --git"):
                break
            elif inside and line.startswith("+"):
                lines.append(line[1:])
        if lines:
            return "\n".join(lines) + "\n"
    pytest.fail(f"no patch in sw/linux/patches creates {BINDING}")


def test_binding_validates_the_socs_device_tree(tmp_path):
    """The series' dt-bindings YAML is a valid schema (dt-doc-validate), the
    device tree the SoC emits passes it (dt-validate), and a device tree
    with the unit's node broken fails it: so the schema did match the node."""
    bindir = Path(sys.executable).parent
    schema_dir = tmp_path / "bindings"
    (schema_dir / "riscv").mkdir(parents=True)
    yaml = schema_dir / "riscv/tlb-shootdown,batched.yaml"
    yaml.write_text(binding_from_series())
    r = subprocess.run([bindir / "dt-doc-validate", "-u", schema_dir, yaml], capture_output=True, text=True)
    assert r.returncode == 0 and not r.stdout + r.stderr, r.stdout + r.stderr
    subprocess.run([bindir / "dt-mk-schema", "-j", "-o", tmp_path / "schema.json", schema_dir], check=True)

    dts = (Path(verilog(2)) / "SimTop.dts").read_text()
    broken = dts.replace('reg-names = "control"', 'reg-names = "channels"')
    assert broken != dts and 'compatible = "tlb-shootdown,batched-v2"' in dts

    def validate(source, name):
        dtb = tmp_path / f"{name}.dtb"
        subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", dtb, "-"], input=source, text=True, check=True)
        # dt-validate exits 0 either way: what it prints is the verdict.
        return subprocess.run([bindir / "dt-validate", "-l", "tlb-shootdown,batched", "-s", tmp_path / "schema.json",
                               dtb], capture_output=True, text=True)

    good = validate(dts, "soc")
    assert not good.stdout + good.stderr, good.stdout + good.stderr
    bad = validate(broken, "broken")
    assert "tlb-shootdown@4000000" in bad.stdout + bad.stderr and "reg-names" in bad.stdout + bad.stderr, \
        bad.stdout + bad.stderr
