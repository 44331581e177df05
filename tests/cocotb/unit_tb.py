"""cocotb bench of the ShootdownUnit (hw/testing/Benches.scala: UnitBench, with
TileLink monitors on its register and list-read ports).

The bench is the unit's whole world: the four harts (and one requester that
is none of them) on the register port, a memory that answers list reads
after random delays and in any order across sources, and four agents with
random back-pressure and acknowledgement delays. A random stream of
requests from every channel, good and bad, by list and inline, in both
completion styles, with other harts meddling with channels that are not
theirs and firmware narrowing the channels' limits, is checked against
shootdown_ref.UnitModel. Directed tests cover what random traffic cannot
reach: targets that never answer (TIMEOUT) and the ticket wrap."""
import json
import os
import pathlib
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import Event, FallingEdge, RisingEdge, Timer

import shootdown_ref as ref
import shootdown_regs as regs

PERIOD_NS = 10
# What the bench top was elaborated with (ElaborateBench writes params.json
# beside its Verilog; test_benches.py passes its path).
if "BENCH_PARAMS" not in os.environ:
    raise SystemExit("unit_tb: BENCH_PARAMS (the bench's params.json) is not set: run it through test_benches.py")
ELABORATED = json.loads(pathlib.Path(os.environ["BENCH_PARAMS"]).read_text())
HARTS = ELABORATED["harts"]
UNIT_BASE = ELABORATED["address"]
MEM_BASE, MEM_SIZE = ELABORATED["mem_base"], ELABORATED["mem_size"]
QUEUE_DEPTH, MAX_ENTRIES = ELABORATED["queue_depth"], ELABORATED["max_entries"]
RESET_CEILING, RESET_TIMEOUT = ELABORATED["ceiling"], ELABORATED["timeout"]
COUNTER_BITS, LIST_READS = ELABORATED["counter_bits"], ELABORATED["list_reads"]
CEILING = 64  # what the bench's firmware narrows the ceiling to
STRANGER = HARTS      # the register port's source that is no hart
# Cycles from an agent's last acknowledgement (seen by the bench) to a read of
# STATUS that shows the completion: the broadcaster registers the
# acknowledgement, completes the request the next cycle, and the channel's
# done ticket is a register.
STATUS_LAG = 2
COMPLETION_SLACK = HARTS   # cycles a completion may wait behind others done in the same cycle
GET, PUT_FULL = 4, 0
ACCESS_ACK, ACCESS_ACK_DATA = 0, 1
DENIED_BLOCKS = range(MEM_BASE + 0x0F00_0000, MEM_BASE + 0x0F00_1000)  # list reads here get denied
HUNG_BLOCKS = range(MEM_BASE + 0x0F00_1000, MEM_BASE + 0x0F00_2000)    # ... are not answered while World.hung


def sig(dut, name):
    return getattr(dut, name)


def val(dut, name):
    return int(getattr(dut, name).value)


class World:
    """Everything around the unit, advanced one cycle at a time by `step`."""

    def __init__(self, dut, p):
        self.dut, self.p = dut, p
        self.reg_queue = []          # (is_write, addr, data, event, source, size) not yet sent
        self.reg_waiting = None      # sent, awaiting D
        self.mem = {}                # 8-byte word address -> value
        self.gets = []               # [source, address, beats_left, due_cycle]
        self.active_get = None       # the response being sent (beats stay together)
        # Each agent acknowledges its `end` commands in the order it took
        # them: [seq, due cycle or None while held back] per `end`.
        self.acks = [deque() for _ in range(HARTS)]
        self.cur_seq = None          # the request whose command the agents are offered
        self.traces = {}             # seq -> {agent: [Cmd]}, and which agents acked
        self.acked = {}              # seq -> agents that acknowledged it
        self.finished = []           # (cycle, trace) of completed requests, in request order
        self.cycle = 0
        # Directed tests: agents that take no command, or hold their acks.
        self.take_blocked = set()
        self.hung = False               # reads of HUNG_BLOCKS wait for release_hung()
        self.ack_held = set()

    def held_acks(self, a):
        return sum(due is None for _, due in self.acks[a])

    def release_ack(self, a):
        """The oldest acknowledgement an agent held back comes now."""
        held = next(e for e in self.acks[a] if e[1] is None)
        held[1] = self.cycle + 1

    def release_hung(self):
        """Memory answers the reads it held back, now."""
        for g in self.gets:
            if g[3] == float("inf"):
                g[3] = self.cycle + 1

    def ack_now(self, a):
        return bool(self.acks[a]) and self.acks[a][0][1] is not None and self.acks[a][0][1] <= self.cycle

    def read(self, addr, source, size=3):
        """A read of 2^size bytes at addr (the answer is the whole 64-bit beat)."""
        ev = Event()
        self.reg_queue.append((False, addr, 0, ev, source, size))
        return ev

    def write(self, addr, data, source):
        ev = Event()
        self.reg_queue.append((True, addr, data, ev, source, 3))
        return ev

    def drive(self):
        d, p = self.dut, self.p
        # register port
        if self.reg_waiting is None and self.reg_queue:
            is_write, addr, data, _, source, size = self.reg_queue[0]
            sig(d, "reg_a_valid").value = 1
            sig(d, "reg_a_bits_opcode").value = PUT_FULL if is_write else GET
            sig(d, "reg_a_bits_param").value = 0
            sig(d, "reg_a_bits_size").value = size
            sig(d, "reg_a_bits_source").value = source
            sig(d, "reg_a_bits_address").value = addr
            sig(d, "reg_a_bits_mask").value = ((1 << (1 << size)) - 1) << (addr & 7)
            sig(d, "reg_a_bits_data").value = data
            sig(d, "reg_a_bits_corrupt").value = 0
        else:
            sig(d, "reg_a_valid").value = 0
        sig(d, "reg_d_ready").value = int(random.random() < p["reg_d_ready"])
        # memory
        sig(d, "mem_a_ready").value = int(random.random() < p["mem_a_ready"])
        if self.active_get is None:
            due = [g for g in self.gets if g[3] <= self.cycle]
            if due and random.random() < p["mem_d_valid"]:
                self.active_get = random.choice(due)
                self.gets.remove(self.active_get)
        g = self.active_get
        if g is not None and random.random() < p["mem_d_valid"]:
            source, addr, left, _ = g
            beat_addr = addr + 8 * (8 - left)
            denied = addr in DENIED_BLOCKS
            sig(d, "mem_d_valid").value = 1
            sig(d, "mem_d_bits_opcode").value = ACCESS_ACK_DATA
            sig(d, "mem_d_bits_param").value = 0
            sig(d, "mem_d_bits_size").value = 6
            sig(d, "mem_d_bits_source").value = source
            sig(d, "mem_d_bits_sink").value = 0
            sig(d, "mem_d_bits_denied").value = int(denied)
            sig(d, "mem_d_bits_corrupt").value = int(denied)
            sig(d, "mem_d_bits_data").value = self.mem.get(beat_addr, 0xDEAD_0000_0000_0000 | beat_addr)
        else:
            sig(d, "mem_d_valid").value = 0
        # agents
        for a in range(HARTS):
            sig(d, f"agents_{a}_cmd_ready").value = int(a not in self.take_blocked and random.random() < p["agent_ready"])
            sig(d, f"agents_{a}_ack").value = int(self.ack_now(a))
            # Busy while it owes an acknowledgement or holds commands it
            # cannot take more after (take_blocked: a full queue).
            sig(d, f"agents_{a}_busy").value = int(bool(self.acks[a]) or a in self.take_blocked)

    def sample(self):
        d = self.dut
        where = f"cycle {self.cycle}"
        if val(d, "reg_a_valid") and val(d, "reg_a_ready"):
            self.reg_waiting = self.reg_queue.pop(0)
            self.reg_waiting[3].a_cycle = self.cycle
        if val(d, "reg_d_valid") and val(d, "reg_d_ready"):
            assert self.reg_waiting is not None, f"{where}: register response without a request"
            is_write, addr, _, ev, source, _ = self.reg_waiting
            assert val(d, "reg_d_bits_opcode") == (ACCESS_ACK if is_write else ACCESS_ACK_DATA)
            assert val(d, "reg_d_bits_source") == source, f"{where}: register response to the wrong source"
            self.reg_waiting = None
            ev.set(val(d, "reg_d_bits_data"))
        if val(d, "mem_a_valid") and val(d, "mem_a_ready"):
            assert val(d, "mem_a_bits_opcode") == GET, f"{where}: the list reader only reads"
            size, addr = val(d, "mem_a_bits_size"), val(d, "mem_a_bits_address")
            assert size == 6 and addr % 64 == 0, f"{where}: list reads are whole aligned blocks"
            source = val(d, "mem_a_bits_source")
            assert all(g[0] != source for g in self.gets) and (
                self.active_get is None or self.active_get[0] != source), f"{where}: source {source} reused in flight"
            due = self.cycle + random.randint(1, self.p["mem_latency"])
            self.gets.append([source, addr, 8, float("inf") if self.hung and addr in HUNG_BLOCKS else due])
        if val(d, "mem_d_valid") and val(d, "mem_d_ready"):
            self.active_get[2] -= 1
            if self.active_get[2] == 0:
                self.active_get = None
        for a in range(HARTS):
            if self.ack_now(a):
                seq, _ = self.acks[a].popleft()
                self.acked[seq].add(a)
            if val(d, f"agents_{a}_cmd_valid") and val(d, f"agents_{a}_cmd_ready"):
                c = ref.Cmd.of(bool(val(d, f"agents_{a}_cmd_bits_end")), val(d, f"agents_{a}_cmd_bits_kind"),
                               val(d, f"agents_{a}_cmd_bits_vpn"), val(d, f"agents_{a}_cmd_bits_asid"),
                               val(d, f"agents_{a}_cmd_bits_nonLeaf"))
                assert self.cur_seq is not None, f"{where}: agent {a} took a command before any was sent"
                self.traces.setdefault(self.cur_seq, {}).setdefault(a, []).append(c)
                self.acked.setdefault(self.cur_seq, set())
                if c.end:
                    due = None if a in self.ack_held else self.cycle + random.randint(1, self.p["ack_delay"])
                    self.acks[a].append([self.cur_seq, due])
        if val(d, "sent_valid"):
            self.cur_seq = val(d, "sent_bits")
        # A request is over when every agent that got its commands has taken
        # its `end` and acknowledged it; they are handed on as they end (the
        # checker knows their channels and puts each channel's in order).
        for seq in sorted(self.traces):
            trace = self.traces[seq]
            if all(s[-1].end for s in trace.values()) and self.acked[seq] >= set(trace):
                self.finished.append((self.cycle, trace))
                del self.traces[seq]
                del self.acked[seq]


async def cycle_loop(world):
    d = world.dut
    while True:
        await FallingEdge(d.clock)
        world.cycle += 1
        world.drive()
        await Timer(1, units="ns")
        world.sample()


async def reg_read(world, addr, source=STRANGER):
    ev = world.read(addr, source)
    await ev.wait()
    return ev.data


async def ch_read_when(world, c, off):
    """A read of channel c's register by hart c, and the cycle the unit took it in."""
    ev = world.read(chan(c, off), c)
    await ev.wait()
    return ev.data, ev.a_cycle


async def reg_write(world, addr, data, source=STRANGER):
    ev = world.write(addr, data, source)
    await ev.wait()


def chan(c, off):
    return UNIT_BASE + regs.channel(c) + off


async def ch_read(world, c, off, source=None):
    """A read of channel c's register, by hart c unless told otherwise."""
    return await reg_read(world, chan(c, off), c if source is None else source)


async def ch_write(world, c, off, data, source=None):
    await reg_write(world, chan(c, off), data, c if source is None else source)


def lim(c, off):
    return UNIT_BASE + regs.limit(c) + off


async def open_channels(world):
    """Opens every channel as firmware does (the unit resets closed)."""
    for c in range(HARTS):
        for off, v in ref.open_limits(MEM_BASE):
            await reg_write(world, lim(c, off), v)


def random_entry():
    kind = random.choice([0, 0, 0, 1, 1, 2, 3])
    size = random.choice([0, 0, 0, 1, 2])
    pages = 1 if random.random() < 0.7 else random.randint(2, 8)
    return ref.Entry(kind, size, pages, random.getrandbits(36) << 12, random.getrandbits(16),
                     nonleaf=random.random() < 0.2)


def random_entries(n, allow_bad):
    out = [random_entry() for _ in range(n)]
    if allow_bad and random.random() < 0.3:
        i = random.randrange(n)
        out[i] = ref.Entry(random.choice([0, 1]), 3, 1, out[i].va, out[i].asid)
    return out


class Checker:
    def __init__(self, world, model):
        self.world, self.model = world, model
        self.outcomes = {}      # (chan, ticket) -> Outcome
        self.checked = 0
        # Per channel, the last completions: (cycle the last acknowledgement
        # came, ticket, then STATUS's done and error bit before it).
        self.recent = [deque(maxlen=8) for _ in range(HARTS)]

    def status_states(self, c, cycle):
        """What STATUS.done and STATUS.error may show when the unit takes a
        read in `cycle`: STATUS takes STATUS_LAG cycles to show a completion
        after its last acknowledgement, never less (rule 3) nor more than
        COMPLETION_SLACK later (the engine completes one request a cycle)."""
        states = [(self.model.done[c], int(self.model.err_word[c] != 0))]
        for at, _, done_before, err_before in reversed(self.recent[c]):
            if at <= cycle - STATUS_LAG - COMPLETION_SLACK:
                break
            states.append((done_before, err_before))
        return states

    def match(self, finished):
        """The waiting request this trace is, completed in the model; or the
        reasons it matches none."""
        cycle, trace = finished
        targets = sum(1 << a for a in trace)
        seqs = list(trace.values())
        assert all(s == seqs[0] for s in seqs), f"targets of one request got different commands: {trace}"
        cmds = seqs[0][:-1]
        end = ref.end_cmd(cmds)
        assert seqs[0][-1] == end, \
            f"commands to harts {targets:#x} ended with {seqs[0][-1]}, want {end}: {ref._short(cmds)}"
        errors = []
        # Exactly the documented expansion: the pages the entries name, up to
        # CEILING, then one full flush (docs/shootdown-unit.md). Rule 4 would
        # let a unit flush more; this one promises not to, so a request that
        # flushes anything else, more included, matches no waiting request.
        for req in self.model.heads():
            if req.targets != targets:
                continue
            outcome = self.outcomes[(req.chan, req.ticket)]
            why = ref.check_stream(outcome, cmds, self.model.ceiling)
            if why is None:
                promised = ref.promised_entries(req.entries, outcome)
                why = ref.judge_translations(promised, cmds, ref.cached_translations(promised))
            if why is None:
                c = req.chan
                # A channel's requests complete in order: not before the last one.
                at = max(cycle, self.recent[c][-1][0] + 1) if self.recent[c] else cycle
                self.recent[c].append((at, req.ticket, self.model.done[c], int(self.model.err_word[c] != 0)))
                assert self.model.completed(req, outcome, cmds) is None
                self.checked += 1
                return None
            errors.append(f"ch{req.chan} t{req.ticket}: {why}")
        return (f"commands to harts {targets:#x} match no waiting request: {ref._short(cmds)} "
                f"({'; '.join(errors) or 'no waiting request has these targets'})")

    def absorb(self, final=False):
        """Match finished request traces to the model's waiting requests. A
        trace may finish before the bench has seen its SUBMIT answer, so one
        that matches nothing waits for the next call, until the final one,
        and so does one whose channel has an older request still waiting
        (requests of different channels end in any order)."""
        progress = True
        while progress:
            progress = False
            for f in list(self.world.finished):
                if self.match(f) is None:
                    self.world.finished.remove(f)
                    progress = True
        if final and self.world.finished:
            raise AssertionError(self.match(self.world.finished[0]))


async def start(dut, p):
    """Clock, reset and the bench's world; returns the world."""
    cocotb.start_soon(Clock(dut.clock, PERIOD_NS, units="ns").start())
    dut.reset.value = 1
    world = World(dut, p)
    world.drive()
    for _ in range(3):
        await RisingEdge(dut.clock)
    dut.reset.value = 0
    cocotb.start_soon(cycle_loop(world))
    return world


def first_ticket():
    """With the test aid tickets-near-wrap on, every channel starts 16 below
    the wrap (hw/testing/Mutants.scala)."""
    return (1 << 32) - 16 if cocotb.plusargs.get("mutant") == "tickets-near-wrap" else 0


def unique_full_targets(model, outcomes, targets):
    """Runs that end in a full flush look alike to the checker: a mask for
    such a run that no waiting one of them uses, or None if all are taken."""
    taken = {r.targets for q in model.pending for r in q if outcomes[(r.chan, r.ticket)].exact in (None, [ref.FULL])}
    if not targets or targets >> HARTS or targets not in taken:
        return targets
    free = [m for m in range(1, 1 << HARTS) if m not in taken]
    return random.choice(free) if free else None


class Scenario:
    """A random run: n_ops operations on random channels (requests by list
    and in registers, good and bad; foreign harts meddling; STATUS reads,
    syncs, clearing errors, firmware narrowing a channel's limits), each
    answer checked against the model as it comes and every request's
    flushes when it completes; then everything drained and all the state
    compared. One method an operation, drawing its random numbers in the
    order a seed replays."""

    def __init__(self, dut, world, n_ops, ceiling, long_lists):
        self.dut, self.world, self.n_ops = dut, world, n_ops
        self.ceiling, self.long_lists = ceiling, long_lists
        self.model = ref.UnitModel(HARTS, MAX_ENTRIES, QUEUE_DEPTH, ceiling, MEM_BASE, MEM_SIZE, first_ticket())
        self.check = Checker(world, self.model)
        self.next_list = MEM_BASE + 0x10_0000
        self.busy_answers = self.foreign_ops = self.accepted = 0
        # Channels whose limits the firmware narrowed, and the op that widens
        # them again (narrowed for long, a channel refuses most of the run).
        self.narrowed = {}
        self.irq_en = []
        self.op = -1
        # n_ops operations, and more if too few of them were requests the
        # unit took (a seed may draw many refusals and busy answers): the
        # bench is not vacuous by chance, and a unit that refuses almost
        # everything still fails the check at the end.
        self.enough = n_ops // 5 + 1

    async def run(self, p):
        await self.reset_state()
        while (op := self.op + 1) < self.n_ops or (self.accepted < self.enough and op < 4 * self.n_ops):
            self.op = op
            await self.step(p)
        self.op += 1
        await self.drain_and_compare()

    async def reset_state(self):
        """INFO and the reset values, then every channel checked closed at
        reset, and opened."""
        world, model = self.world, self.model
        info = await reg_read(world, UNIT_BASE + ref.G_INFO)
        assert info == (MAX_ENTRIES << 32 | COUNTER_BITS << 16 | HARTS << 8 | regs.VERSION), f"INFO {info:#x}"
        assert await reg_read(world, UNIT_BASE + ref.G_CEILING) == RESET_CEILING
        assert await reg_read(world, UNIT_BASE + ref.G_TIMEOUT) == RESET_TIMEOUT
        await reg_write(world, UNIT_BASE + ref.G_CEILING, self.ceiling)
        self.irq_en = [random.random() < 0.5 for _ in range(HARTS)]
        for c in range(HARTS):
            await ch_write(world, c, ref.CH_IRQ_ENABLE, int(self.irq_en[c]))
        # The unit resets closed: every channel's limits read 0 and a request
        # is refused with ERR_DENIED until firmware opens the channel.
        for c in range(HARTS):
            for off in (regs.LIMIT_ALLOWED, regs.LIMIT_LIST_BASE, regs.LIMIT_LIST_LIMIT):
                assert await reg_read(world, lim(c, off)) == 0, f"channel {c}'s limit {off:#x} is open at reset"
            e = ref.Entry(0, 0, 1, 0x4000_0000, 1)
            for off, v in [(ref.CH_TARGETS, 1 << c), (ref.CH_ENTRY, e.encode())]:
                await ch_write(world, c, off, v)
                model.write(c, off, v)
            got = await ch_read(world, c, ref.CH_SUBMIT_ONE)
            assert got == (1 << 64) - ref.ERR_DENIED and model.submit_answers(c, True) == {got}, \
                f"SUBMIT_ONE on channel {c} before it was opened: {got:#x}"
            model.submitted(c, got, [e], True)
            await self.set_limits(c, (1 << HARTS) - 1, MEM_BASE, MEM_BASE + MEM_SIZE)

    async def set_limits(self, c, allowed, base, end):
        for off, v in [(regs.LIMIT_ALLOWED, allowed), (regs.LIMIT_LIST_BASE, base), (regs.LIMIT_LIST_LIMIT, end)]:
            await reg_write(self.world, lim(c, off), v)
            self.model.write_limit(c, off, v)
            assert await reg_read(self.world, lim(c, off)) == self.model.limits[c][off]

    async def submit(self, c, inline, entries, outcome):
        """SUBMIT or SUBMIT_ONE on channel c, its answer one the model
        allows; True if the unit was busy."""
        model, check = self.model, self.check
        answers = model.submit_answers(c, inline)
        got = await ch_read(self.world, c, ref.CH_SUBMIT_ONE if inline else ref.CH_SUBMIT)
        check.absorb()
        answers |= model.submit_answers(c, inline)   # a completion may have landed meanwhile
        assert got in answers, (f"op {self.op}: {'SUBMIT_ONE' if inline else 'SUBMIT'} on channel {c} answered "
                                f"{got:#x}, legal {sorted(answers)}")
        req = model.submitted(c, got, entries, inline)
        if req is not None:
            self.accepted += 1
            check.outcomes[(c, req.ticket)] = outcome
        return got == 0

    async def step(self, p):
        """One random operation."""
        for c in [c for c, until in self.narrowed.items() if until <= self.op]:
            await self.set_limits(c, (1 << HARTS) - 1, MEM_BASE, MEM_BASE + MEM_SIZE)
            del self.narrowed[c]
        c = random.randrange(HARTS)
        r = random.random()
        self.check.absorb()
        if r < 0.62:
            await self.list_request(c, p)
        elif r < 0.74:
            await self.one_entry_request(c, p)
        elif r < 0.8:
            await self.foreign_access(c)
        elif r < 0.88:
            await self.read_status(c)
        elif r < 0.93:
            await self.sync(c)
        elif r < 0.97:
            await self.clear_errors(c)
        elif c not in self.narrowed:
            # Firmware narrows channel c's limits for a while.
            base = MEM_BASE + 0x10_0000 + random.randrange(0, 0x400_0000, 0x1000)
            await self.set_limits(c, random.randrange(1, 1 << HARTS), base, base + 0x400_0000)
            self.narrowed[c] = self.op + random.randint(1, 30)

    def bad_list(self, targets, count, list_addr):
        """A request by list broken one way at random: (targets, count,
        list address, whether its read ends in a bus error)."""
        what = random.choice(["targets", "count", "align", "range", "bus"])
        if what == "targets":
            targets = random.choice([0, 1 << HARTS, 0xFF, 1 << 40 | 1])
        elif what == "count":
            count = random.choice([0, MAX_ENTRIES + 1, 1 << 16 | 1, 0xFFFF_FFFF])
        elif what == "align":
            list_addr += random.choice([1, 4])
        elif what == "range":
            list_addr = random.choice([0x1000, MEM_BASE + MEM_SIZE - 8 * max(count, 1) + 8,
                                       1 << 40 | list_addr, 1 << 63 | list_addr | 4])
        else:
            list_addr = DENIED_BLOCKS.start + 8 * random.randrange(8)
            return targets, count, list_addr, count <= self.ceiling
        return targets, count, list_addr, False

    async def list_request(self, c, p):
        """A request by list; most are good."""
        world, model, ceiling = self.world, self.model, self.ceiling
        bad = random.random() < p["bad"]
        targets = random.randrange(1, 1 << HARTS)
        if self.long_lists:
            count = random.randint(1, 300)
        else:
            count = random.randint(1, 12) if random.random() < 0.85 else random.randint(ceiling - 4, ceiling + 12)
        entries = random_entries(count, allow_bad=bad)
        list_addr = self.next_list + 8 * random.randrange(8)
        self.next_list += 0x1000
        if self.next_list > MEM_BASE + 0x0800_0000:
            self.next_list = MEM_BASE + 0x10_0000
        bus_error = False
        if bad:
            targets, count, list_addr, bus_error = self.bad_list(targets, count, list_addr)
        outcome = ref.expected_outcome(entries[:count], ceiling, bus_error)
        if outcome.exact is None or outcome.exact == [ref.FULL]:
            targets = unique_full_targets(model, self.check.outcomes, targets)
            if targets is None:
                # Every mask is taken: send a plain request instead.
                targets = random.randrange(1, 1 << HARTS)
                count = random.randint(1, 8)
                entries = random_entries(count, allow_bad=False)
                list_addr = self.next_list - 0x1000
                outcome = ref.expected_outcome(entries, ceiling, False)
        for i, e in enumerate(entries[:count]):
            world.mem[list_addr + 8 * i] = e.encode()
        for off, v in [(ref.CH_TARGETS, targets), (ref.CH_LIST, list_addr), (ref.CH_COUNT, count)]:
            await ch_write(world, c, off, v)
            model.write(c, off, v)
        if bad or random.random() < 0.1:
            for off in (ref.CH_TARGETS, ref.CH_LIST, ref.CH_COUNT):
                got = await ch_read(world, c, off)
                want = model.readback(c, off)
                assert got == want, f"op {self.op}: channel {c} register {off:#x} reads {got:#x}, want {want:#x}"
        self.check.absorb()
        self.busy_answers += await self.submit(c, False, entries[:count], outcome)

    async def one_entry_request(self, c, p):
        """A one-entry request in registers (SUBMIT_ONE), no list read."""
        e = random_entry()
        if random.random() < p["bad"]:
            e = ref.Entry(random.choice([0, 1]), 3, 1, e.va, e.asid)
        targets = random.randrange(1, 1 << HARTS)
        outcome = ref.expected_outcome([e], self.ceiling)
        if outcome.exact == [ref.FULL]:
            targets = unique_full_targets(self.model, self.check.outcomes, targets)
            if targets is None:
                targets, e = random.randrange(1, 1 << HARTS), ref.Entry(0, 0, 1, e.va, e.asid)
                outcome = ref.expected_outcome([e], self.ceiling)
        for off, v in [(ref.CH_TARGETS, targets), (ref.CH_ENTRY, e.encode())]:
            await ch_write(self.world, c, off, v)
            self.model.write(c, off, v)
        self.busy_answers += await self.submit(c, True, [e], outcome)

    async def foreign_access(self, c):
        """Someone else's hart (or no hart) meddles with channel c: its
        writes are dropped, its submissions refused, its reads answer 0."""
        world, model, op = self.world, self.model, self.op
        who = random.choice([h for h in range(HARTS) if h != c] + [STRANGER])
        off = random.choice([ref.CH_TARGETS, ref.CH_LIST, ref.CH_COUNT, ref.CH_ENTRY, ref.CH_ERROR,
                             ref.CH_IRQ_PENDING, ref.CH_IRQ_ENABLE, ref.CH_SUBMIT, ref.CH_SUBMIT_ONE,
                             ref.CH_FAILED, ref.CH_ERRORS])
        if off in (ref.CH_SUBMIT, ref.CH_SUBMIT_ONE):
            got = await ch_read(world, c, off, source=who)
            assert got == (1 << 64) - ref.ERR_FOREIGN, f"op {op}: hart {who}'s SUBMIT on channel {c}: {got:#x}"
        else:
            await ch_write(world, c, off, random.getrandbits(64), source=who)
        model.foreign()
        self.foreign_ops += 1
        for off in (ref.CH_TARGETS, ref.CH_LIST, ref.CH_COUNT, ref.CH_ENTRY, ref.CH_STATUS, ref.CH_ERROR,
                    ref.CH_ACKED, ref.CH_FAILED, ref.CH_IRQ_ENABLE, ref.CH_IRQ_PENDING, ref.CH_ERRORS):
            got = await ch_read(world, c, off, source=who)   # others read 0
            assert got == 0, f"op {op}: hart {who} read {got:#x} from channel {c}'s {off:#x}"
        for off in (ref.CH_TARGETS, ref.CH_LIST, ref.CH_COUNT, ref.CH_ENTRY):
            got = await ch_read(world, c, off)
            assert got == model.readback(c, off), f"op {op}: hart {who} changed channel {c}'s {off:#x}"
        assert await ch_read(world, c, ref.CH_IRQ_ENABLE) == int(self.irq_en[c])
        # The owner reads half of SUBMIT or SUBMIT_ONE: nothing is
        # submitted (the model's next answer checks that) and the half
        # it reads is that half of -ERR_NARROW.
        off = random.choice([ref.CH_SUBMIT, ref.CH_SUBMIT_ONE])
        half = random.randrange(2)
        ev = world.read(chan(c, off) + 4 * half, c, size=2)
        await ev.wait()
        got = ev.data >> (32 * half) & 0xFFFF_FFFF
        want = ((1 << 64) - ref.ERR_NARROW) >> (32 * half) & 0xFFFF_FFFF
        assert got == want, f"op {op}: a 32-bit read of channel {c}'s {off:#x} + {4 * half} answered {got:#x}"

    async def read_status(self, c):
        status, when = await ch_read_when(self.world, c, ref.CH_STATUS)
        self.check.absorb()
        done = regs.get(status, regs.CH_STATUS_DONE)
        legal = self.check.status_states(c, when)
        assert (done, regs.get(status, regs.CH_STATUS_ERROR)) in legal, \
            f"op {self.op}: STATUS {status:#x} read in cycle {when}, legal (done, error) {legal}"
        assert regs.get(status, regs.CH_STATUS_IDLE) == int(done == self.model.posted[c]), \
            f"op {self.op}: STATUS {status:#x}"

    async def wait_idle(self, c):
        while not regs.get(await ch_read(self.world, c, ref.CH_STATUS), regs.CH_STATUS_IDLE):
            self.check.absorb()

    async def sync(self, c):
        """Post-then-sync: wait until this channel is idle."""
        await self.wait_idle(c)
        self.check.absorb()
        world = self.world
        assert self.model.status(c) >> 32 & 1, (
            f"op {self.op}: channel {c} idle before the model completed it: "
            f"{self.check.match(world.finished[0]) if world.finished else 'no run seen'}")

    async def clear_errors(self, c):
        await ch_write(self.world, c, ref.CH_ERROR, 0)
        self.model.err_word[c] = 0
        # Clear some of the sticky summary's bits, once the channel is
        # idle (a completion in the cycle of the write would keep its bit).
        await self.wait_idle(c)
        for _ in range(STATUS_LAG + 2):
            await RisingEdge(self.dut.clock)
        self.check.absorb()
        clear = random.getrandbits(16)
        await ch_write(self.world, c, ref.CH_ERRORS, clear)
        self.model.errors[c] &= ~clear

    async def drain_and_compare(self):
        """Drain everything, then compare all the state."""
        dut, world, model, check = self.dut, self.world, self.model, self.check
        for c in range(HARTS):
            await self.wait_idle(c)
        for _ in range(50):
            await RisingEdge(dut.clock)
        check.absorb(final=True)
        assert not world.traces and not world.finished
        assert all(not q for q in model.pending), "the unit went idle with requests the bench never saw run"
        for c in range(HARTS):
            assert await ch_read(world, c, ref.CH_STATUS) == model.status(c)
            assert await ch_read(world, c, ref.CH_ERROR) == model.err_word[c], f"ERROR of channel {c}"
            assert await ch_read(world, c, ref.CH_FAILED) == 0, f"FAILED of channel {c}"
            assert await ch_read(world, c, ref.CH_ERRORS) == model.errors[c], f"ERRORS of channel {c}"
        for off, key in [(ref.G_REQUESTS, "requests"), (ref.G_PAGES, "pages"), (ref.G_FALLBACKS, "fallbacks"),
                         (ref.G_ERRORS, "errors"), (ref.G_FOREIGN, "foreign"), (ref.G_TIMEOUTS, "timeouts")]:
            got = await reg_read(world, UNIT_BASE + off)
            assert got == model.counters[key], f"counter {key}: {got}, model {model.counters[key]}"
        entries = await reg_read(world, UNIT_BASE + ref.G_ENTRIES)
        assert model.entries_lo <= entries <= model.entries_hi, f"CTR_ENTRIES {entries}"
        await RisingEdge(dut.clock)
        await FallingEdge(dut.clock)
        irq = val(dut, "irq")
        for c in range(HARTS):
            pend = await ch_read(world, c, ref.CH_IRQ_PENDING)
            assert pend == int(model.posted[c] != first_ticket()), f"IRQ_PENDING of channel {c}"
            assert (irq >> c) & 1 == int(self.irq_en[c] and pend), f"interrupt line of channel {c}"
            await ch_write(world, c, ref.CH_IRQ_PENDING, 1)
        await RisingEdge(dut.clock)
        await FallingEdge(dut.clock)
        assert val(dut, "irq") == 0
        dut._log.info(f"{check.checked} requests checked (each exactly its documented expansion), "
                      f"{model.counters['errors']} errors, {model.counters['fallbacks']} fallbacks, "
                      f"{self.busy_answers} busy answers, {self.foreign_ops} foreign accesses, {world.cycle} cycles")
        assert check.checked >= self.enough, \
            f"too few requests ran for the bench to mean much ({self.op} operations)"


async def scenario(dut, n_ops, p, ceiling=CEILING, long_lists=False):
    world = await start(dut, p)
    await Scenario(dut, world, n_ops, ceiling, long_lists).run(p)


@cocotb.test()
async def random_requests(dut):
    await scenario(dut, n_ops=300, p=dict(bad=0.15, reg_d_ready=0.9, mem_a_ready=0.8, mem_d_valid=0.8,
                                          mem_latency=20, agent_ready=0.8, ack_delay=20))


@cocotb.test()
async def heavy_back_pressure(dut):
    """Slow agents and memory: queues fill, SUBMIT pushes back, nothing is lost."""
    await scenario(dut, n_ops=200, p=dict(bad=0.1, reg_d_ready=0.5, mem_a_ready=0.3, mem_d_valid=0.4,
                                          mem_latency=60, agent_ready=0.15, ack_delay=80))


@cocotb.test()
async def long_lists(dut):
    """Lists of up to 300 entries, read in one request (ceiling raised)."""
    await scenario(dut, n_ops=60, p=dict(bad=0.05, reg_d_ready=0.9, mem_a_ready=0.7, mem_d_valid=0.7,
                                         mem_latency=30, agent_ready=0.7, ack_delay=20),
                   ceiling=4000, long_lists=True)


QUIET = dict(bad=0, reg_d_ready=1, mem_a_ready=1, mem_d_valid=1, mem_latency=5, agent_ready=1, ack_delay=5)


async def open_with_timeout(dut, timeout):
    """A quiet world, every channel open, TIMEOUT set."""
    world = await start(dut, QUIET)
    await open_channels(world)
    await reg_write(world, UNIT_BASE + ref.G_TIMEOUT, timeout)
    return world


async def inline_request(world, c, targets, entry=ref.Entry(0, 0, 1, 0x1000, 1)):
    await ch_write(world, c, ref.CH_TARGETS, targets)
    await ch_write(world, c, ref.CH_ENTRY, entry.encode())
    ticket = await ch_read(world, c, ref.CH_SUBMIT_ONE)
    assert 0 < ticket < 1 << 32, f"SUBMIT_ONE on channel {c}: {ticket:#x}"
    return ticket


async def wait_done(world, c, ticket, max_cycles):
    """STATUS once channel c has completed `ticket`; fails after max_cycles."""
    end = world.cycle + max_cycles
    while world.cycle < end:
        status = await ch_read(world, c, ref.CH_STATUS)
        if regs.get(status, regs.CH_STATUS_DONE) == ticket:
            return status
    raise AssertionError(f"channel {c} did not complete ticket {ticket} in {max_cycles} cycles")


@cocotb.test()
async def targets_that_never_answer(dut):
    """Rule 9: a target that takes no command, or never acknowledges, is
    given up on after TIMEOUT cycles; the request completes with ERR_TIMEOUT
    naming it in FAILED, and the unit goes on. Until its agent has been idle
    for TIMEOUT cycles the target is dead: a request naming it leaves it out
    at once instead of waiting another TIMEOUT. An
    acknowledgement that comes after its request gave up counts for no
    later request. FAILED and ERRORS keep what they were given until
    cleared."""
    timeout = 300
    world = await open_with_timeout(dut, timeout)
    # Hart 2's agent takes nothing (its queue is full, so it is busy).
    world.take_blocked.add(2)
    t = await inline_request(world, 0, 0b0110)
    status = await wait_done(world, 0, t, 20 * timeout)
    assert regs.get(status, regs.CH_STATUS_ERROR), f"STATUS {status:#x}: no error"
    assert await ch_read(world, 0, ref.CH_ERROR) == ref.ERR_TIMEOUT << 32 | t
    assert await ch_read(world, 0, ref.CH_FAILED) == 0b0100
    assert await ch_read(world, 0, ref.CH_ACKED) == 0b0010
    # Dead, hart 2 is left out of the next request naming it at once.
    t = await inline_request(world, 1, 0b0100)
    await wait_done(world, 1, t, timeout // 4)
    assert await ch_read(world, 1, ref.CH_ERROR) == ref.ERR_TIMEOUT << 32 | t
    assert await ch_read(world, 1, ref.CH_FAILED) == 0b0100
    # A request that does not name hart 2 is not held up by it.
    t1 = await inline_request(world, 3, 0b1011)
    status = await wait_done(world, 3, t1, timeout // 4)
    assert not regs.get(status, regs.CH_STATUS_ERROR), f"STATUS {status:#x}"
    # Idle again, hart 2 is still dead until it has been idle for TIMEOUT
    # cycles (until 2026-12-08 it was served again at once), then served.
    world.take_blocked.clear()
    for off, v in [(ref.CH_ERROR, 0), (ref.CH_FAILED, 0b0100)]:
        await ch_write(world, 1, off, v)
    idle_from = world.cycle
    t = await inline_request(world, 1, 0b0100)
    await wait_done(world, 1, t, timeout // 4)
    assert world.cycle - idle_from < timeout
    assert await ch_read(world, 1, ref.CH_ERROR) == ref.ERR_TIMEOUT << 32 | t
    for off, v in [(ref.CH_ERROR, 0), (ref.CH_FAILED, 0b0100)]:
        await ch_write(world, 1, off, v)
    for _ in range(timeout):
        await RisingEdge(dut.clock)
    t = await inline_request(world, 1, 0b0100)
    status = await wait_done(world, 1, t, timeout // 2)
    assert not regs.get(status, regs.CH_STATUS_ERROR), f"STATUS {status:#x}"
    assert await ch_read(world, 1, ref.CH_FAILED) == 0
    # Hart 3's agent takes the ends of two requests but holds their
    # acknowledgements: both give up on it.
    world.ack_held.add(3)
    ta = await inline_request(world, 0, 0b1000)
    tb = await inline_request(world, 2, 0b1000)
    while world.held_acks(3) < 2:
        await RisingEdge(dut.clock)
    await wait_done(world, 0, ta, 20 * timeout)
    await wait_done(world, 2, tb, 20 * timeout)
    assert await ch_read(world, 0, ref.CH_ERROR) == ref.ERR_TIMEOUT << 32 | ta
    assert await ch_read(world, 2, ref.CH_ERROR) == ref.ERR_TIMEOUT << 32 | tb
    # FAILED and ERRORS are sticky: both give-ups stay until cleared.
    assert await ch_read(world, 0, ref.CH_FAILED) == 0b1100
    await ch_write(world, 0, ref.CH_FAILED, 0b0100)
    assert await ch_read(world, 0, ref.CH_FAILED) == 0b1000
    assert await ch_read(world, 0, ref.CH_ERRORS) == 1 << ref.ERR_TIMEOUT
    # Owing acknowledgements, hart 3 is dead: left out at once.
    t = await inline_request(world, 1, 0b1000)
    await wait_done(world, 1, t, timeout // 4)
    assert await ch_read(world, 1, ref.CH_ERROR) == ref.ERR_TIMEOUT << 32 | t
    # The late acknowledgements count for no request (the broadcaster
    # asserts that every one it counts has a request waiting for it); then
    # hart 3 is idle, and its next request completes by its acknowledgement.
    world.ack_held.clear()
    world.release_ack(3)
    world.release_ack(3)
    for _ in range(timeout + 20):
        await RisingEdge(dut.clock)
    assert world.held_acks(3) == 0 and not world.acks[3]
    await ch_write(world, 2, ref.CH_ERROR, 0)
    t = await inline_request(world, 2, 0b1000)
    status = await wait_done(world, 2, t, timeout // 2)
    assert not regs.get(status, regs.CH_STATUS_ERROR), f"STATUS {status:#x}"
    assert await ch_read(world, 2, ref.CH_ACKED) == 0b1000
    # One per target and request given up on or left out.
    assert await reg_read(world, UNIT_BASE + ref.G_TIMEOUTS) == 6
    # TIMEOUT 0 waits for ever.
    await reg_write(world, UNIT_BASE + ref.G_TIMEOUT, 0)
    world.take_blocked.add(1)
    t = await inline_request(world, 3, 0b0010)
    for _ in range(10 * timeout):
        await RisingEdge(dut.clock)
    assert regs.get(await ch_read(world, 3, ref.CH_STATUS), regs.CH_STATUS_DONE) != t
    world.take_blocked.clear()
    status = await wait_done(world, 3, t, timeout)
    assert not regs.get(status, regs.CH_STATUS_ERROR)


@cocotb.test()
async def a_slow_target_holds_up_no_other_channel(dut):
    """Issue 55, item 9: a target that drains slowly holds up the requests
    that name it and the later requests of their channel, no others. Hart
    3's agent takes channel 3's `end` and holds its acknowledgement; while it
    does, channels 0 and 1 send requests to harts 0 and 1, each of which
    must complete in a few dozen cycles (until 2026-12-08 each waited behind
    channel 3's for about TIMEOUT: completion was in one order for all).
    Channel 3's second request, to hart 0 only, waits for its first. Hart
    3's own watchdog gives up on it TIMEOUT cycles after it stopped moving,
    however busy the others keep the unit (one watchdog for all was reset
    by any target's progress)."""
    timeout = 4000
    world = await open_with_timeout(dut, timeout)
    world.ack_held.add(3)
    slow = await inline_request(world, 3, 0b1000)
    behind = await inline_request(world, 3, 0b0001)
    while world.held_acks(3) < 1:
        await RisingEdge(dut.clock)
    held_from = world.cycle
    worst = 0
    for k in range(8):
        c = k % 2
        sent = world.cycle
        t = await inline_request(world, c, 0b0011)
        status = await wait_done(world, c, t, 400)
        assert not regs.get(status, regs.CH_STATUS_ERROR), f"STATUS {status:#x}"
        worst = max(worst, world.cycle - sent)
    assert world.cycle - held_from < timeout // 2, "the other channels' requests took too long to tell"
    done3 = regs.get(await ch_read(world, 3, ref.CH_STATUS), regs.CH_STATUS_DONE)
    assert done3 == slow - 1, f"channel 3 completed ticket {done3} while hart 3 held its acknowledgement"
    # Hart 0 acknowledged `behind` long ago: it still waits for `slow`.
    status = await wait_done(world, 3, behind, 2 * timeout)
    assert world.cycle - held_from >= timeout
    assert await ch_read(world, 3, ref.CH_ERROR) == ref.ERR_TIMEOUT << 32 | slow
    assert await ch_read(world, 3, ref.CH_FAILED) == 0b1000
    dut._log.info(f"the other channels' slowest request: {worst} cycles, TIMEOUT {timeout}")
    world.ack_held.clear()
    world.release_ack(3)


@cocotb.test(skip=cocotb.plusargs.get("mutant") != "tickets-near-wrap")
async def tickets_skip_zero(dut):
    """With tickets starting 16 below 2^32, the channel counts up to
    2^32 - 1 and then 1: never 0, which means "queue full"."""
    world = await start(dut, QUIET)
    await open_channels(world)
    want = first_ticket()
    for _ in range(40):
        want = ref.next_ticket(want)
        t = await inline_request(world, 1, 0b0001)
        assert t == want, f"ticket {t:#x}, want {want:#x}"
        status = await wait_done(world, 1, t, 200)
        assert regs.get(status, regs.CH_STATUS_IDLE)


async def list_request(world, c, targets, addr, count):
    for off, v in [(ref.CH_TARGETS, targets), (ref.CH_LIST, addr), (ref.CH_COUNT, count)]:
        await ch_write(world, c, off, v)
    ticket = await ch_read(world, c, ref.CH_SUBMIT)
    assert 0 < ticket < 1 << 32, f"SUBMIT on channel {c}: {ticket:#x}"
    return ticket


@cocotb.test()
async def a_timeout_does_not_hide_the_lists_error(dut):
    """Issue 55, item 12: a request that gave up on a target and whose list
    held a reserved entry ends with ERR_TIMEOUT in ERROR (what software must
    act on first), and ERRORS records both codes (the timeout hid the
    list's there until 2026-12-07)."""
    timeout = 300
    world = await open_with_timeout(dut, timeout)
    world.take_blocked.add(2)
    addr = MEM_BASE + 0x30_0000
    for i, e in enumerate([ref.Entry(0, 0, 1, 0x40 << 12, 5), ref.Entry(0, 3, 1, 0x41 << 12, 5)]):
        world.mem[addr + 8 * i] = e.encode()
    t = await list_request(world, 0, 0b0110, addr, 2)
    await wait_done(world, 0, t, 20 * timeout)
    assert await ch_read(world, 0, ref.CH_ERROR) == ref.ERR_TIMEOUT << 32 | t
    assert await ch_read(world, 0, ref.CH_FAILED) == 0b0100
    errors = await ch_read(world, 0, ref.CH_ERRORS)
    assert errors == 1 << ref.ERR_TIMEOUT | 1 << ref.ERR_BAD_ENTRY, f"ERRORS {errors:#x}"


@cocotb.test()
async def list_reads_that_never_answer(dut):
    """A list read that memory never answers holds nothing up for longer
    than TIMEOUT: the request ends with ERR_LIST_TIMEOUT (as one full flush)
    and the read's source is lost; a good list is still read with the
    sources left; once every source is lost a list request times out
    waiting for one; when the answers finally come they are dropped and the
    sources serve again."""
    timeout = 300
    world = await open_with_timeout(dut, timeout)
    world.hung = True
    entries = [ref.Entry(0, 0, 1, (0x40 + i) << 12, 5) for i in range(4)]
    good = MEM_BASE + 0x30_0000
    for base in [good] + [HUNG_BLOCKS.start + 0x40 * k for k in range(LIST_READS + 1)]:
        for i, e in enumerate(entries):
            world.mem[base + 8 * i] = e.encode()

    async def expect(c, addr, code, cycles):
        t = await list_request(world, c, 0b0011, addr, len(entries))
        await wait_done(world, c, t, cycles)
        err = await ch_read(world, c, ref.CH_ERROR)
        assert err == (code << 32 | t if code else 0), f"list at {addr:#x}: ERROR {err:#x}"
        await ch_write(world, c, ref.CH_ERROR, 0)

    for k in range(LIST_READS + 1):
        # The last one finds every source lost: it times out without a read.
        await expect(1, HUNG_BLOCKS.start + 0x40 * k, regs.ERR_LIST_TIMEOUT, 3 * timeout)
        if k == 0:
            await expect(2, good, 0, timeout)
    assert world.gets and all(g[1] in HUNG_BLOCKS for g in world.gets), "reads the bench holds back"
    world.release_hung()
    for _ in range(100):
        await RisingEdge(dut.clock)
    assert not world.gets
    await expect(2, good, 0, timeout)
    assert await ch_read(world, 1, ref.CH_ERRORS) == 1 << regs.ERR_LIST_TIMEOUT


@cocotb.test()
async def errors_do_not_depend_on_order(dut):
    """The answer a list gets depends on COUNT, CEILING and what the list
    holds, not on the order its blocks arrive in: a reserved entry after the
    ceiling was passed still ends the request with ERR_BAD_ENTRY; a bus
    error wins over it; a COUNT above CEILING is not read at all."""
    p = dict(QUIET, mem_latency=40)
    world = await start(dut, p)
    await open_channels(world)
    ceiling = 8
    await reg_write(world, UNIT_BASE + ref.G_CEILING, ceiling)
    good = [ref.Entry(0, 0, 4, (0x40 + 8 * i) << 12, 5) for i in range(12)]
    bad = ref.Entry(0, 3, 1, 0x9000, 5)
    cases = [
        # (entries, list address, the error it must end with)
        (good[:4] + [bad], MEM_BASE + 0x20_0000, ref.ERR_BAD_ENTRY),     # 16 pages, then a bad one
        ([bad] + good[:4], MEM_BASE + 0x20_1028, ref.ERR_BAD_ENTRY),     # across two blocks, bad first
        (good[:4] + [bad], DENIED_BLOCKS.start, ref.ERR_BUS),            # the bus error wins
        (good[:2] + [bad] * 7, MEM_BASE + 0x20_2000, 0),                 # COUNT 9 > CEILING: not read
        (good[:2], MEM_BASE + 0x20_3000, 0),                             # 8 pages: no fallback
    ]
    for entries, addr, code in cases:
        for i, e in enumerate(entries):
            world.mem[addr + 8 * i] = e.encode()
        for repeat in range(3):   # memory answers in a different order each time
            t = await list_request(world, 1, 0b0101, addr, len(entries))
            await wait_done(world, 1, t, 5000)
            err = await ch_read(world, 1, ref.CH_ERROR)
            want = code << 32 | t if code else 0
            assert err == want, (f"{len(entries)} entries at {addr:#x} (try {repeat}): ERROR {err:#x}, "
                                 f"want {want:#x}")
            await ch_write(world, 1, ref.CH_ERROR, 0)


async def irq_rise(dut, world, c, out):
    """Appends to `out` the cycle in which channel c's completion set its
    interrupt (the line is high from the next cycle on)."""
    while True:   # after the bench's sample of each cycle (cycle_loop)
        await FallingEdge(dut.clock)
        await Timer(2, units="ns")
        if val(dut, "irq") >> c & 1:
            out.append(world.cycle - 1)
            return


@cocotb.test()
async def a_refusal_as_a_request_fails_keeps_both_errors(dut):
    """ERRORS keeps every code the channel saw: a submission refused
    (ERR_BAD_COUNT) in the very cycle the channel's earlier request
    completes with an error (ERR_TIMEOUT: its target is given up on) sets
    its bit as well as the completion's. The bench times the refusal from
    the last attempt's completion (the interrupt line rises the cycle after)
    until the two meet, and asserts that they did."""
    world = await open_with_timeout(dut, 100)
    world.take_blocked.add(2)   # hart 2 takes nothing: each request naming it ends in ERR_TIMEOUT
    both = 1 << ref.ERR_TIMEOUT | 1 << ref.ERR_BAD_COUNT
    await ch_write(world, 0, ref.CH_IRQ_ENABLE, 1)
    await ch_write(world, 0, ref.CH_COUNT, 0)          # SUBMIT is refused: ERR_BAD_COUNT
    span, met = None, 0
    for attempt in range(16):
        for off, v in [(ref.CH_ERRORS, both), (ref.CH_IRQ_PENDING, 1), (ref.CH_ERROR, 0), (ref.CH_FAILED, 0b0100)]:
            await ch_write(world, 0, off, v)
        await ch_write(world, 0, ref.CH_TARGETS, 0b0100)
        await ch_write(world, 0, ref.CH_ENTRY, ref.Entry(0, 0, 1, 0x1000, 1).encode())
        rise = []
        cocotb.start_soon(irq_rise(dut, world, 0, rise))
        ticket, submitted = await ch_read_when(world, 0, ref.CH_SUBMIT_ONE)
        assert 0 < ticket < 1 << 32
        refused = None
        if span is not None:
            # The refusal's read is taken the cycle after it is queued.
            target = submitted + span + (attempt % 5) - 2
            while world.cycle < target - 1:
                await RisingEdge(dut.clock)
            answer, refused = await ch_read_when(world, 0, ref.CH_SUBMIT)
            assert answer == (1 << 64) - ref.ERR_BAD_COUNT, f"SUBMIT answered {answer:#x}"
        while not rise:
            await RisingEdge(dut.clock)
        completed = rise[0]
        span = completed - submitted
        if refused is not None:
            met += refused == completed
            errors = await ch_read(world, 0, ref.CH_ERRORS)
            assert errors == both, (f"attempt {attempt}: ERRORS {errors:#x}, want {both:#x} (refused in cycle "
                                    f"{refused}, completed in {completed})")
    assert met, "the refusal never came in the cycle of a completion"
