# Batched TLB shootdown prototype: top-level commands.
#   make demo      the headline: S-mode shootdown by SBI RFENCE over IPIs vs the unit (RFENCE,
#                  batched SBI extension, direct), 2- and 4-hart SoCs + QEMU (build/results/demo.*)
#   make test      the test suite (what CI runs)
#   make test-long the tests that repeat a shorter one's check on more harts or
#                  through the firmware (marked long; about 20 min)
#   make run PROGRAM=<elf> [HARTS=2|4|8] [MAX_CYCLES=N] [WAVES=1 [WAVES_FROM=C] [WAVES_TO=C]]
#   make models    the checked 2- and 4-hart Verilator models
#   make bench     the unit vs a software shootdown: latency, stolen cycles, traps; SoC area (build/results/)
#   make bench-scaling  cost against 1, 3 and 7 targets on the 8-hart SoC (build/results/scaling.*)
#   make fw-profile [HARTS=4]  where OpenSBI's cycles go in one shootdown call, from the debug
#                  model's commit trace (build/results/fw-profile.md; some minutes)
#   make bench-sim simulation speed: naive vs checked vs debug models (build/results/sim-speed.csv)
#   make generated regenerate the files derived from hw/ (C header, register table in docs/)
#                  and the litmus catalogue in docs/litmus.md
#   make sw        bare-metal programs and OpenSBI
#   make linux     the test kernel (sw/linux, stock and with the series) as OpenSBI payloads
#   make linux-demo [HARTS="2 4"] [MUTANT=NAME]  the Linux workloads on the SoC, stock vs the port
#                  with the unit, side by side (build/results/linux-demo.*; about 25 min for 2
#                  harts); MUTANT=no-nonleaf: the port vs the port without what the kernel
#                  mutant takes out, what that code costs (build/results/linux-demo-NAME.*)
#   make linux-bench [HARTS="2 4 8"] [BUILDS=2] [BOOTS=4] [PER_BOOT=2] [CONFIGS="stock unit"] [SWEEP="--scheduler ADDR | --slurm N"]
#                  the Linux benchmarks (sw/linux/init/bench.c, each its anchor's loop with its
#                  flushes checked: tlb-flush2, tlb-flush2-range, tlb-flush2-processes, cow-zero,
#                  pageout, mprotect, fork, useonce) in seven configurations on 2 harts (stock,
#                  stock's A/A on other builds, the port on stock OpenSBI, the unit by its channel
#                  and by SBI, the unit broadcasting, the limit: remote flushes skipped) and stock,
#                  the unit and the limit on more; each over BUILDS kernel builds x BOOTS boots x
#                  PER_BOOT samples forked from each, through Dask (scripts/sweep.py; resumes), with
#                  medians, intervals over the boots, p values and the share of the stock-to-limit
#                  gap recovered on cycles a loop (build/results/linux-bench.*; docs/sweeps.md
#                  has its time)
#   make linux-series  every patch of the Linux series builds on its own (a full build, then
#                  minutes a patch)
#   make linux-mutants [MUTANTS="a b"]  each kernel mutant (sw/linux/mutants: the port broken
#                  on purpose) in make test's Linux run on the 2-hart SoC; killed only by the
#                  workload count it names (build/results/linux-mutants.md; ~15 min a mutant)
#   make litmus-long [SCHEDULES=N] [BACKENDS="unit-4harts ..."] [SWEEP=...]  every litmus test N (1,000)
#                  times on every back end or those named (the unit, the SBI paths, QEMU),
#                  judged against the reference models
#                  (build/results/litmus-*.txt; hours at 1,000)
#   make cocotb-long [SEEDS=N]  the cocotb unit and agent benches with N (200) random seeds each
#   make mutants [MUTANTS="a b"] [SWEEP=...]  the suite and the scoreboard once per debug knob that breaks
#                  a rule on purpose (hw/testing/Mutants.scala) and once on the real design:
#                  the kill matrix (build/results/mutants.md; a few minutes a mutant)
#                  SWEEP: where the long targets' jobs run (scripts/sweep.py): a LocalCluster
#                  of a worker a core by default, "--scheduler ADDR" a Dask cluster, "--slurm N"
#                  N Slurm jobs; each keeps its finished jobs, so a stopped run resumes
#   make fpga BOARD=ulx3s|ulx3s-bram|ulx3s-smoke|arty-a7-100t|arty-a7-100t-ddr3[-25mhz]  the SoC for an
#                  FPGA board as far as this machine takes it (build/fpga/BOARD/; docs/fpga.md): ulx3s
#                  a bitstream (about 40 min, SEED=N for nextpnr), ulx3s-smoke the first bitstream for
#                  a new board (PLL, reset, serial echo, heartbeat; minutes), the Arty (block RAM or
#                  DDR3) a yosys estimate and the Verilog for Vivado
#   make gatesim [NETLIST=build/fpga/ulx3s/ulx3s_sdram_top.json]  the ULX3S SDRAM board's netlist
#                  at gate level (synthesised first unless NETLIST names one): hello, shootdown_timeout
#                  and fail over its serial pins, against the RTL board model (build/results/gatesim.*;
#                  a 20-min build, then an hour or more)
#   make results [PUBLISH="demo bench ..."]  docs/results.md from the results kept in docs/results/
#                  (each stamped by the command that made it); PUBLISH copies those named from
#                  build/results/ first; lists the ones whose inputs changed since
#   make clean     remove build/ (the model cache in ~/.cache/tlb-shootdown stays)
SHELL := /bin/bash
BUILD := $(CURDIR)/build
HARTS ?= 2
MAX_CYCLES ?= 0
PYTEST_ARGS ?=

export BUILD

BAREMETAL := $(BUILD)/sw/baremetal
OPENSBI_OUT := $(BUILD)/sw/opensbi

.PHONY: all setup models sw linux fpga gatesim linux-demo linux-bench linux-series linux-mutants litmus-long cocotb-long mutants demo test test-long run bench bench-scaling bench-sim fw-profile generated results clean help
all: models sw

help:
	@awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' Makefile

setup:
	@scripts/setup.sh > /dev/null

models: setup
	@scripts/build-model.sh 2 checked > /dev/null
	@scripts/build-model.sh 4 checked > /dev/null

sw: setup
	@for p in soc qemu sbi board board-sdram; do $(MAKE) -s -C sw/baremetal PLATFORM=$$p O=$(BAREMETAL)/$$p || exit 1; done
	@sw/opensbi/build.sh $(BAREMETAL)/sbi/sbi_hello.bin $(OPENSBI_OUT)

linux: sw
	@for k in stock port; do \
	  image=$$(sw/linux/build.sh $$([ $$k = stock ] && echo --stock)) || exit 1; \
	  sw/opensbi/build.sh $$image $(BUILD)/sw/linux/$$k || exit 1; \
	  echo "$$k kernel: $$image; with OpenSBI: $(BUILD)/sw/linux/$$k/fw_payload.{elf,bin}"; \
	done

demo: setup
	@scripts/demo.sh

linux-demo: sw
	@scripts/linux-demo.sh $(if $(MUTANT),--mutant $(MUTANT)) $(HARTS)

linux-bench: sw
	@$$(scripts/setup.sh)/bin/python scripts/linux_bench.py \
	  --harts $(if $(filter command line,$(origin HARTS)),$(HARTS),2 4 8) --builds $(or $(BUILDS),2) --boots $(or $(BOOTS),4) \
	  --per-boot $(or $(PER_BOOT),2) $(if $(CONFIGS),--configs $(CONFIGS)) $(SWEEP)

linux-series: setup
	@sw/linux/build-series.sh

linux-mutants: sw
	@scripts/linux-mutants.sh $(MUTANTS)

litmus-long: models sw
	@$$(scripts/setup.sh)/bin/python scripts/litmus_long.py $(or $(SCHEDULES),1000) $(BACKENDS) $(SWEEP)

mutants: sw
	@$$(scripts/setup.sh)/bin/python scripts/mutants.py $(MUTANTS) $(SWEEP)

cocotb-long: setup
	@venv=$$(scripts/setup.sh) && cd tests && COCOTB_SEEDS=$(or $(SEEDS),200) $$venv/bin/python -m pytest cocotb

test: sw
	@scripts/build-test-models.sh
	@venv=$$(scripts/setup.sh) && cd tests && $$venv/bin/python -m pytest $(PYTEST_ARGS)

test-long: sw
	@scripts/build-test-models.sh
	@venv=$$(scripts/setup.sh) && cd tests && $$venv/bin/python -m pytest -m long $(PYTEST_ARGS)

run: setup
	@test -n "$(PROGRAM)" || { echo "usage: make run PROGRAM=<elf> [HARTS=2|4|8] [MAX_CYCLES=N] [WAVES=1 [WAVES_FROM=C] [WAVES_TO=C]]" >&2; exit 2; }
	@test -f "$(PROGRAM)" || { echo "make run: '$(PROGRAM)' does not exist" >&2; exit 2; }
	@case "$(HARTS)" in 2|4|8) ;; *) echo "make run: HARTS must be 2, 4 or 8, not '$(HARTS)'" >&2; exit 2;; esac
	@sim=$$(scripts/build-model.sh $(HARTS) $(if $(WAVES),debug,checked)) && \
	$$sim +max-cycles=$(MAX_CYCLES) $(if $(WAVES),+waves=$(BUILD)/waves.fst \
	  $(if $(WAVES_FROM),+waves-from=$(WAVES_FROM)) $(if $(WAVES_TO),+waves-to=$(WAVES_TO))) $(abspath $(PROGRAM))
	@$(if $(WAVES),echo "waveform: $(BUILD)/waves.fst")

bench: setup
	@scripts/bench.sh

bench-scaling: setup
	@scripts/bench-scaling.sh

fw-profile: setup
	@scripts/fw-profile.sh $(if $(filter command line,$(origin HARTS)),$(HARTS),4)

bench-sim: sw
	@scripts/bench-sim.sh

generated: setup
	@./mill --no-server -j 1 hw.runMain shootdown.devices.GenShootdownHeaders \
	  --header sw/include/tlb_shootdown_regs.h --doc docs/shootdown-registers.md \
	  --python scripts/shootdown_regs.py --finisher sw/include/finisher.h
	@PYTHONPATH=scripts python3 -m litmus_lang.catalogue --write docs/litmus.md

results:
	@python3 scripts/results/page.py $(if $(PUBLISH),--publish $(PUBLISH))

fpga:
	@test -n "$(BOARD)" || { echo "usage: make fpga BOARD=ulx3s|ulx3s-bram|ulx3s-smoke|arty-a7-100t|arty-a7-100t-ddr3|arty-a7-100t-ddr3-25mhz" >&2; exit 2; }
	@fpga/build.sh $(BOARD)

gatesim: setup
	@$$(scripts/setup.sh)/bin/python scripts/gatesim.py $(if $(NETLIST),--netlist $(NETLIST))

clean:
	rm -rf $(BUILD) out
