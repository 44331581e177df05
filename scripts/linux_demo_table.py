#!/usr/bin/env python3
"""linux_demo_table.py OUT_DIR LOG... : the `make linux-demo` table.

Each LOG is one run of the test kernel on the Verilator SoC with the
harness's +timestamps (every console line starts "[CYCLE msip N0 N1 ...] "),
named linux-demo-<harts>-<kernel>.log, kernel "stock", "port" or the name
of a kernel mutant (sw/linux/mutants, `make linux-demo MUTANT=NAME`). /init brackets every workload
phase with "phase NAME begin" and "phase NAME end linux_ipis=N key=value..."
(sw/linux/init/init.c); newer /init prints "phase NAME done" before it
reads any counter, and that line then ends the phase. For each phase this
script takes, from the harness:
cycles, IPIs (msip raised on any hart) and, where the harness counts them,
the harts' cycles in M-mode (OpenSBI's share: its RFENCE traps on stock);
from the kernel: the IPIs it sent
for its own reasons (/proc/interrupts), and the port's shootdown counters;
from OpenSBI: the RFENCE calls it served (its SBI PMU firmware counters,
read by /init through perf). Shootdown IPIs are the harness's IPIs minus the
kernel's own; SBI fence calls are OpenSBI's RFENCE calls plus, for the port,
its requests that went through the batched extension (each one call; those
it submitted on its hart's own channel, "direct", made none).

Prints one table per SoC, stock and port side by side (or the mutant and
the port: what the code the mutant takes out costs), and writes
OUT_DIR/linux-demo[-MUTANT].csv, .png and .md (the tables, stamped with
the command, the commit of sw/ and the date and machine). A benchmark, not a
test: one run, numbers as measured.
"""
import pathlib
import re
import sys

from results import tables as results_tables
from results.stamp import stamp as results_stamp

# The harness's +timestamps prefix: the cycle, then each counter it found
# with a count per hart (sim/hart_counters.h): msip, and where the model
# has them mmode, held and walk
STAMP = re.compile(r"^\[\s*(\d+)((?: [a-z]+(?: \d+)+)*)\] (.*)$")
COUNTER = re.compile(r" ([a-z]+)((?: \d+)+)")
# Per-hart counters a phase's row carries, summed over the harts: the
# counter's name in the stamp and the row's key
HART_COUNTERS = {"mmode": "mmode_cycles", "held": "held_cycles", "walk": "walk_cycles"}
RECLAIM = re.compile(r"reclaim: .*: (\d+) pages scanned, (\d+) file refaults, (\d+) pages to swap")
NAME = re.compile(r"linux-demo-(\d+)-([a-z0-9-]+)\.log$")
FIELDS = ["harts", "kernel", "phase", "cycles", "msip", "mmode_cycles", "held_cycles", "walk_cycles", "linux_ipis",
          "shootdown_ipis", "sbi_rfence_calls", "sbi_fence_calls", "requests", "direct", "entries", "wait_cycles",
          "wait_ticks", "whole_space", "errors", "sbi_rfence", "batches", "pending_requests", "pending_none",
          "pending_whole", "young_requests", "young_pages", "scanned", "refaults", "swapped"]


def fail(msg):
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(1)


def counts(stamp):
    """{counter: its count summed over the harts} of a stamp's counters."""
    return {name: sum(map(int, nums.split())) for name, nums in COUNTER.findall(stamp)}


def parse(path):
    """[{phase, cycles, msip, linux_ipis, counters...}] in run order, plus
    the boot (reset to /init's first line) as phase "boot"."""
    rows, open_phases, done, boot, reclaim_row = [], {}, {}, None, None
    for line in pathlib.Path(path).read_text(errors="replace").splitlines():
        m = STAMP.match(line)
        if not m or " msip " not in m.group(2) + " ":
            continue
        cycle, now, text = int(m.group(1)), counts(m.group(2)), m.group(3)
        if boot is None and text.startswith("init: running on cpus"):
            boot = {"phase": "boot", "cycles": cycle, "msip": now["msip"],
                    **{key: now.get(name) for name, key in HART_COUNTERS.items()}}
            rows.append(boot)
        m = RECLAIM.search(text)
        if m and reclaim_row is not None:
            reclaim_row.update(scanned=int(m.group(1)), refaults=int(m.group(2)), swapped=int(m.group(3)))
        words = text.split()
        if len(words) >= 3 and words[0] == "phase" and words[2] == "begin":
            open_phases[words[1]] = (cycle, now)
        elif len(words) == 3 and words[0] == "phase" and words[2] == "done":
            done[words[1]] = (cycle, now)
        elif len(words) >= 3 and words[0] == "phase" and words[2] == "end" and words[1] in open_phases:
            c0, at0 = open_phases.pop(words[1])
            # The kernel's IPI count was read after the done line: the
            # harness's to compare with it is the end line's.
            msip_to_end = now["msip"] - at0["msip"]
            cycle, now = done.pop(words[1], (cycle, now))
            row = {"phase": words[1], "cycles": cycle - c0, "msip": now["msip"] - at0["msip"],
                   **{key: now[name] - at0[name] if name in now and name in at0 else None
                      for name, key in HART_COUNTERS.items()}}
            row.update({k: int(v) for k, v in (w.split("=", 1) for w in words[3:] if "=" in w)})
            row["shootdown_ipis"] = msip_to_end - row.get("linux_ipis", 0)
            if words[1] == "reclaim":
                reclaim_row = row
            if "sbi_rfence_calls" in row:
                row["sbi_fence_calls"] = row["sbi_rfence_calls"] + row.get("requests", 0) - row.get("direct", 0)
            rows.append(row)
    return rows


def exit_status(path):
    m = re.search(r"^\[sim\] .*status (-?\d+):", pathlib.Path(path).read_text(errors="replace"), re.M)
    return int(m.group(1)) if m else None


def cell(v):
    return "-" if v is None else str(v)


# The kernel counts its waits in cycles (wait_cycles, the hart's cycle
# counter). Kernels before 2026-11-28 counted timer ticks (wait_ticks,
# get_cycles()), and on the SoC mtime ticks once every 100 cycles
# (WithTimebase in hw/configs/Configs.scala); their logs read the same.
CYCLES_PER_TICK = 100


def wait_cycles(row):
    """The cycles a phase's requests waited, from either counter, or None."""
    if row.get("wait_cycles") is not None:
        return int(row["wait_cycles"])
    return None if row.get("wait_ticks") is None else int(row["wait_ticks"]) * CYCLES_PER_TICK


def share(harts, row, cycles):
    """`cycles` as a share of every hart's cycles in the phase, or "-"."""
    if cycles is None or not row.get("cycles"):
        return "-"
    return f"{100 * cycles / (harts * row['cycles']):.2f}%"


def wait_share(harts, row):
    """The port's wait for its requests as a share of every hart's cycles
    in the phase (targets spend nothing: the unit does not trap them)."""
    return share(harts, row, wait_cycles(row))


def mmode_share(harts, row):
    """The harts' cycles in M-mode (the firmware) as a share of all their
    cycles in the phase."""
    return share(harts, row, row.get("mmode_cycles"))


def table(harts, stock, port):
    phases = [r["phase"] for r in port] or [r["phase"] for r in stock]
    s = {r["phase"]: r for r in stock}
    p = {r["phase"]: r for r in port}
    out = [f"{harts}-hart SoC: stock = stock kernel + stock OpenSBI (remote flushes: SBI RFENCE over IPIs); "
           f"port = sw/linux series + OpenSBI with the unit",
           f"  {'phase':<24} {'cycles stock':>13} {'cycles port':>13} {'port/stock':>10}"
           f" {'sd IPIs stock':>13} {'sd IPIs port':>12} {'SBI calls stock':>15} {'SBI calls port':>14}"
           f" {'M-mode stock':>12} {'M-mode port':>11} {'requests':>8} {'entries':>7} {'wait':>6}"
           f" {'whole':>5} {'rfence':>6} {'pend none':>9} {'pend whole':>10} {'young':>6}"]
    for ph in phases:
        a, b = s.get(ph, {}), p.get(ph, {})
        ratio = f"{b['cycles'] / a['cycles']:.3f}" if a.get("cycles") and b.get("cycles") else "-"
        out.append(f"  {ph:<24} {cell(a.get('cycles')):>13} {cell(b.get('cycles')):>13} {ratio:>10}"
                   f" {cell(a.get('shootdown_ipis')):>13} {cell(b.get('shootdown_ipis')):>12}"
                   f" {cell(a.get('sbi_fence_calls')):>15} {cell(b.get('sbi_fence_calls')):>14}"
                   f" {mmode_share(harts, a):>12} {mmode_share(harts, b):>11}"
                   f" {cell(b.get('requests')):>8} {cell(b.get('entries')):>7} {wait_share(harts, b):>6}"
                   f" {cell(b.get('whole_space')):>5}"
                   f" {cell(b.get('sbi_rfence')):>6} {cell(b.get('pending_none')):>9}"
                   f" {cell(b.get('pending_whole')):>10} {cell(b.get('young_requests')):>6}")
    for kernel, rows in (("stock", s), ("port", p)):
        r = rows.get("reclaim", {})
        if "scanned" in r:
            out.append(f"  reclaim, {kernel}: {r['scanned']} pages scanned, {r['refaults']} file refaults, "
                       f"{r['swapped']} pages to swap")
    out.append("  (boot: reset to /init's first line, msip = every IPI; sd IPIs = IPIs the harness saw minus the "
               "kernel's own; M-mode = the harts' cycles in M-mode (OpenSBI), as a share of all their cycles "
               "(harnesses that count them); SBI calls = the remote-fence SBI calls the harts made: OpenSBI's own count of "
           "RFENCE calls (its PMU firmware counters) plus the port's requests by the batched extension (not those "
               "it submitted on its own channel); requests, entries, whole = the port's unit requests, their entries and "
               "whole-space flushes; wait = the cycles its CPUs waited for requests, as a share of all harts' "
               "cycles; rfence = remote flushes that went by SBI RFENCE instead; pend none/whole = "
               "arch_flush_tlb_batched_pending calls that needed no flush / a whole-mm flush; young = requests "
               "flushing accessed bits that aging cleared)")
    return "\n".join(out)


def variant_table(harts, name, base, port):
    """The port against the port with mutant NAME: both under OpenSBI with
    the unit, so the columns are the port's counters on either side."""
    phases = [r["phase"] for r in port] or [r["phase"] for r in base]
    a, b = {r["phase"]: r for r in base}, {r["phase"]: r for r in port}
    heads = [f"cycles {name}", "cycles port", f"port/{name}", f"msip {name}", "msip port", f"req {name}",
             "req port", f"entries {name}", "entries port", f"wait {name}", "wait port", f"M-mode {name}", "M-mode port",
             f"whole {name}", "whole port"]
    out = [f"{harts}-hart SoC: {name} = the port with sw/linux/mutants/{name}.patch; port = the sw/linux series; "
           f"both under OpenSBI with the unit (default CEILING)",
           f"  {'phase':<28}" + "".join(f" {h}" for h in heads)]
    for ph in phases:
        x, y = a.get(ph, {}), b.get(ph, {})
        ratio = f"{y['cycles'] / x['cycles']:.4f}" if x.get("cycles") and y.get("cycles") else "-"
        cells = [cell(x.get("cycles")), cell(y.get("cycles")), ratio]
        for key in ("msip", "requests", "entries"):
            cells += [cell(x.get(key)), cell(y.get(key))]
        cells += [wait_share(harts, x), wait_share(harts, y), mmode_share(harts, x), mmode_share(harts, y),
                  cell(x.get("whole_space")), cell(y.get("whole_space"))]
        out.append(f"  {ph:<28}" + "".join(f" {c:>{len(h)}}" for c, h in zip(cells, heads)))
    out.append("  (msip = every IPI the harness saw; req, entries, whole = the port's unit requests, their entries and "
               "whole-space flushes; wait = the cycles its CPUs waited for requests, M-mode = the harts' cycles in M-mode "
               "(harnesses that count them), each as a share of all harts' cycles; one run each: the simulation is deterministic, so a repeat gives the same numbers and no spread)")
    return "\n".join(out)


def plot(runs, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    configs = sorted(runs)
    fig, axes = plt.subplots(1, len(configs), figsize=(max(7.5, 6.5 * len(configs)), 4.5), squeeze=False)
    for ax, harts in zip(axes[0], configs):
        other = baseline(runs[harts])
        base = {r["phase"]: r for r in runs[harts].get(other, []) if r["phase"] != "boot"}
        port = {r["phase"]: r for r in runs[harts].get("port", []) if r["phase"] != "boot"}
        phases = [ph for ph in port if ph in base]
        xs = range(len(phases))
        ax.bar([x - 0.2 for x in xs], [base[ph]["cycles"] / 1e6 for ph in phases], 0.4, label=other)
        ax.bar([x + 0.2 for x in xs], [port[ph]["cycles"] / 1e6 for ph in phases], 0.4, label="port + unit")
        ax.set_xticks(list(xs))
        ax.set_xticklabels(phases, rotation=30, ha="right", fontsize=7)
        ax.set_ylabel("cycles (millions)")
        ax.set_title(f"{harts}-hart SoC")
        ax.legend(fontsize=7)
    fig.suptitle(f"Linux workloads on Rocket (Verilator): {other} vs the port with the unit, one run")
    fig.tight_layout()
    fig.savefig(png, dpi=120)


def command(other, runs):
    harts = " ".join(map(str, sorted(runs)))
    return ("make linux-demo" + (f' HARTS="{harts}"' if harts != "2" else "")
            + (f" MUTANT={other}" if other != "stock" else ""))


def stamp(command):
    return results_stamp(command, extra="; one run each, numbers as measured")


def baseline(kernels):
    """What the port is compared with in one SoC's runs: stock, or the one
    mutant run beside it."""
    others = sorted(k for k in kernels if k != "port")
    if "port" not in kernels or len(others) != 1:
        fail(f"need the port's run and one other (stock or a mutant) per SoC, not {sorted(kernels)}")
    return others[0]


def main():
    if len(sys.argv) < 3:
        fail("usage: linux_demo_table.py OUT_DIR LOG...")
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    runs = {}
    for log in sys.argv[2:]:
        m = NAME.search(log)
        if not m:
            fail(f"{log}: not a linux-demo-<harts>-<kernel>.log")
        status = exit_status(log)
        if status != 0:
            fail(f"{log}: the run did not pass (status {status}); its end says why")
        rows = parse(log)
        if not rows:
            fail(f"{log}: no timestamped console lines (was the harness run with +timestamps?)")
        runs.setdefault(int(m.group(1)), {})[m.group(2)] = rows
    others = {baseline(kernels) for kernels in runs.values()}
    if len(others) != 1:
        fail(f"every SoC's runs must compare the port with the same kernel, not {sorted(others)}")
    other = others.pop()
    stem = "linux-demo" if other == "stock" else f"linux-demo-{other}"
    results_tables.write_csv(out / f"{stem}.csv", [{"harts": harts, "kernel": kernel, **r}
                                                    for harts in sorted(runs)
                                                    for kernel, rows in sorted(runs[harts].items()) for r in rows],
                             FIELDS)
    tables = [table(harts, runs[harts]["stock"], runs[harts]["port"]) if other == "stock"
              else variant_table(harts, other, runs[harts][other], runs[harts]["port"]) for harts in sorted(runs)]
    print("\n".join(tables))
    plot(runs, out / f"{stem}.png")
    results_tables.write_fragment(out / f"{stem}.md", f"`{command(other, runs)}`", stamp(command(other, runs)),
                                  results_tables.code("\n".join(tables)))
    print(f"(written to {out / f'{stem}.csv'}, {out / f'{stem}.png'} and {out / f'{stem}.md'})")


if __name__ == "__main__":
    main()
