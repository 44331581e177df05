"""cocotb bench of the ShootdownUnit (hw/soc/Benches.scala: UnitBench, with
TileLink monitors on its register and list-read ports).

The bench is the unit's whole world: a CPU on the register port, a memory
that answers list reads after random delays and in any order across sources,
and four agents with random back-pressure and acknowledgement delays. A
random stream of requests from every channel, good and bad, in both
completion styles, is checked against shootdown_ref.UnitModel."""
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import Event, FallingEdge, RisingEdge, Timer

import shootdown_ref as ref

PERIOD_NS = 10
HARTS = 4
UNIT_BASE = 0x4000000
MEM_BASE, MEM_SIZE = 0x8000_0000, 0x1000_0000
QUEUE_DEPTH, MAX_ENTRIES, CEILING = 4, 4096, 64
RESET_CEILING = 128   # ShootdownParams().ceiling
COUNTER_BITS = 40     # ShootdownParams().counterBits
GET, PUT_FULL = 4, 0
ACCESS_ACK, ACCESS_ACK_DATA = 0, 1
DENIED_BLOCKS = range(MEM_BASE + 0x0F00_0000, MEM_BASE + 0x0F00_1000)  # list reads here get denied


def sig(dut, name):
    return getattr(dut, name)


def val(dut, name):
    return int(getattr(dut, name).value)


class World:
    """Everything around the unit, advanced one cycle at a time by `step`."""

    def __init__(self, dut, p):
        self.dut, self.p = dut, p
        self.reg_queue = []          # (is_write, addr, data, event) not yet sent
        self.reg_waiting = None      # sent, awaiting D
        self.mem = {}                # 8-byte word address -> value
        self.gets = []               # [source, address, beats_left, due_cycle]
        self.active_get = None       # the response being sent (beats stay together)
        self.cmds = [[] for _ in range(HARTS)]        # commands of the current request
        self.ack_due = [None] * HARTS
        self.current = None          # per-request trace: {agent: [Cmd]}
        self.finished = []           # traces of completed requests, in order
        self.cycle = 0

    def read(self, addr):
        ev = Event()
        self.reg_queue.append((False, addr, 0, ev))
        return ev

    def write(self, addr, data):
        ev = Event()
        self.reg_queue.append((True, addr, data, ev))
        return ev

    def drive(self):
        d, p = self.dut, self.p
        # register port
        if self.reg_waiting is None and self.reg_queue:
            is_write, addr, data, _ = self.reg_queue[0]
            sig(d, "reg_a_valid").value = 1
            sig(d, "reg_a_bits_opcode").value = PUT_FULL if is_write else GET
            sig(d, "reg_a_bits_param").value = 0
            sig(d, "reg_a_bits_size").value = 3
            sig(d, "reg_a_bits_source").value = 0
            sig(d, "reg_a_bits_address").value = addr
            sig(d, "reg_a_bits_mask").value = 0xFF
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
            sig(d, f"agents_{a}_cmd_ready").value = int(random.random() < p["agent_ready"])
            ack = self.ack_due[a] is not None and self.ack_due[a] <= self.cycle
            sig(d, f"agents_{a}_ack").value = int(ack)
            sig(d, f"agents_{a}_busy").value = int(bool(self.cmds[a]) or self.ack_due[a] is not None)

    def sample(self):
        d = self.dut
        where = f"cycle {self.cycle}"
        if val(d, "reg_a_valid") and val(d, "reg_a_ready"):
            self.reg_waiting = self.reg_queue.pop(0)
        if val(d, "reg_d_valid") and val(d, "reg_d_ready"):
            assert self.reg_waiting is not None, f"{where}: register response without a request"
            is_write, addr, _, ev = self.reg_waiting
            assert val(d, "reg_d_bits_opcode") == (ACCESS_ACK if is_write else ACCESS_ACK_DATA)
            self.reg_waiting = None
            ev.set(val(d, "reg_d_bits_data"))
        if val(d, "mem_a_valid") and val(d, "mem_a_ready"):
            assert val(d, "mem_a_bits_opcode") == GET, f"{where}: the list reader only reads"
            size, addr = val(d, "mem_a_bits_size"), val(d, "mem_a_bits_address")
            assert size == 6 and addr % 64 == 0, f"{where}: list reads are whole aligned blocks"
            source = val(d, "mem_a_bits_source")
            assert all(g[0] != source for g in self.gets) and (
                self.active_get is None or self.active_get[0] != source), f"{where}: source {source} reused in flight"
            self.gets.append([source, addr, 8, self.cycle + random.randint(1, self.p["mem_latency"])])
        if val(d, "mem_d_valid") and val(d, "mem_d_ready"):
            self.active_get[2] -= 1
            if self.active_get[2] == 0:
                self.active_get = None
        for a in range(HARTS):
            if self.ack_due[a] is not None and self.ack_due[a] <= self.cycle:
                self.ack_due[a] = None
            if val(d, f"agents_{a}_cmd_valid") and val(d, f"agents_{a}_cmd_ready"):
                c = ref.Cmd.of(bool(val(d, f"agents_{a}_cmd_bits_end")), val(d, f"agents_{a}_cmd_bits_kind"),
                               val(d, f"agents_{a}_cmd_bits_vpn"), val(d, f"agents_{a}_cmd_bits_asid"))
                assert self.ack_due[a] is None, f"{where}: agent {a} got a command while its ack was pending"
                if self.current is None:
                    self.current = {}
                self.current.setdefault(a, []).append(c)
                if c.end:
                    self.ack_due[a] = self.cycle + random.randint(1, self.p["ack_delay"])
        # A request is over when every agent that got commands has acked its end.
        if self.current and all(s[-1].end for s in self.current.values()) and all(
                self.ack_due[a] is None for a in self.current):
            self.finished.append(self.current)
            self.current = None


async def cycle_loop(world):
    d = world.dut
    while True:
        await FallingEdge(d.clock)
        world.cycle += 1
        world.drive()
        await Timer(1, units="ns")
        world.sample()


async def reg_read(world, addr):
    ev = world.read(addr)
    await ev.wait()
    return ev.data


async def reg_write(world, addr, data):
    ev = world.write(addr, data)
    await ev.wait()


def chan(c, off):
    return UNIT_BASE + ref.channel_base(c) + off


def random_entries(n, allow_bad):
    out = []
    for _ in range(n):
        kind = random.choice([0, 0, 0, 1, 1, 2, 3])
        size = random.choice([0, 0, 0, 1, 2])
        pages = 1 if random.random() < 0.7 else random.randint(2, 8)
        out.append(ref.Entry(kind, size, pages, random.getrandbits(36) << 12, random.getrandbits(16)))
    if allow_bad and random.random() < 0.3:
        i = random.randrange(n)
        out[i] = ref.Entry(random.choice([0, 1]), 3, 1, out[i].va, out[i].asid)
    return out


class Checker:
    def __init__(self, world, model):
        self.world, self.model = world, model
        self.outcomes = {}      # (chan, ticket) -> Outcome
        self.checked = 0
        self.overflushed = 0    # requests that flushed more than documented (legal, rule 4)

    def match(self, trace):
        """The waiting request this trace is, completed in the model; or the
        reasons it matches none."""
        targets = sum(1 << a for a in trace)
        seqs = list(trace.values())
        assert all(s == seqs[0] for s in seqs), f"targets of one request got different commands: {trace}"
        cmds = seqs[0][:-1]
        errors = []
        # First the documented expansion (it also tells which waiting
        # request this is); failing that, any waiting request the commands
        # flush enough for (rule 4 allows more), counted as over-flushing.
        for precise in (True, False):
            for req in self.model.heads():
                if req.targets != targets:
                    continue
                outcome = self.outcomes[(req.chan, req.ticket)]
                why = ref.check_stream(outcome, cmds, self.model.ceiling) if precise else None
                if why is None:
                    promised = ref.promised_entries(req.entries, outcome)
                    why = ref.judge_translations(promised, cmds, ref.cached_translations(promised))
                if why is None:
                    assert self.model.completed(req, outcome, cmds) is None
                    self.checked += 1
                    self.overflushed += not precise
                    return None
                errors.append(f"ch{req.chan} t{req.ticket}: {why}")
        return (f"commands to harts {targets:#x} match no waiting request: {ref._short(cmds)} "
                f"({'; '.join(errors) or 'no waiting request has these targets'})")

    def absorb(self, final=False):
        """Match finished request traces to the model's waiting requests. A
        trace may finish before the bench has seen its SUBMIT answer, so one
        that matches nothing waits for the next call, until the final one."""
        while self.world.finished:
            why = self.match(self.world.finished[0])
            if why is not None:
                assert not final, why
                return
            self.world.finished.pop(0)


async def scenario(dut, n_ops, p, ceiling=CEILING, long_lists=False):
    cocotb.start_soon(Clock(dut.clock, PERIOD_NS, units="ns").start())
    dut.reset.value = 1
    world = World(dut, p)
    world.drive()
    for _ in range(3):
        await RisingEdge(dut.clock)
    dut.reset.value = 0
    cocotb.start_soon(cycle_loop(world))
    model = ref.UnitModel(HARTS, MAX_ENTRIES, QUEUE_DEPTH, ceiling, MEM_BASE, MEM_SIZE)
    check = Checker(world, model)
    info = await reg_read(world, UNIT_BASE + ref.G_INFO)
    assert info == (MAX_ENTRIES << 32 | COUNTER_BITS << 16 | HARTS << 8 | 1), f"INFO {info:#x}"
    assert await reg_read(world, UNIT_BASE + ref.G_CEILING) == RESET_CEILING
    await reg_write(world, UNIT_BASE + ref.G_CEILING, ceiling)
    irq_en = [random.random() < 0.5 for _ in range(HARTS)]
    for c in range(HARTS):
        await reg_write(world, chan(c, ref.CH_IRQ_ENABLE), int(irq_en[c]))
    next_list = MEM_BASE + 0x10_0000
    busy_answers = 0

    for op in range(n_ops):
        c = random.randrange(HARTS)
        r = random.random()
        check.absorb()
        if r < 0.8:
            # A request; most are good.
            bad = random.random() < p["bad"]
            targets = random.randrange(1, 1 << HARTS)
            if long_lists:
                count = random.randint(1, 300)
            else:
                count = random.randint(1, 12) if random.random() < 0.85 else random.randint(ceiling - 4, ceiling + 12)
            entries = random_entries(count, allow_bad=bad)
            pages = sum(e.pages for e in entries if e.kind in (0, 1))
            if any(e.size == 3 for e in entries) and pages > ceiling:
                entries = [e if e.size != 3 else ref.Entry(e.kind, 0, 1, e.va, e.asid) for e in entries]
            list_addr = next_list + 8 * random.randrange(8)
            next_list += 0x1000
            if next_list > MEM_BASE + 0x0800_0000:
                next_list = MEM_BASE + 0x10_0000
            bus_error = False
            if bad:
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
                    bus_error = count <= ceiling
            outcome = ref.expected_outcome(entries[:count], ceiling, bus_error)
            if outcome.exact is None or outcome.exact == [ref.FULL]:
                # Runs that end in a full flush look alike: keep their target
                # masks unique among waiting ones so each run names its request.
                taken = {r.targets for q in model.pending for r in q
                         if check.outcomes[(r.chan, r.ticket)].exact in (None, [ref.FULL])}
                free = [m for m in range(1, 1 << HARTS) if m not in taken]
                if targets and not targets >> HARTS and targets in taken:
                    if free:
                        targets = random.choice(free)
                    else:
                        # Every mask is taken: send a plain request instead.
                        count = random.randint(1, 8)
                        entries = random_entries(count, allow_bad=False)
                        list_addr = next_list - 0x1000
                        bus_error = False
                        outcome = ref.expected_outcome(entries, ceiling, False)
            for i, e in enumerate(entries[:count]):
                world.mem[list_addr + 8 * i] = e.encode()
            for off, v in [(ref.CH_TARGETS, targets), (ref.CH_LIST, list_addr), (ref.CH_COUNT, count)]:
                await reg_write(world, chan(c, off), v)
                model.write(c, off, v)
            if bad or random.random() < 0.1:
                for off in (ref.CH_TARGETS, ref.CH_LIST, ref.CH_COUNT):
                    got = await reg_read(world, chan(c, off))
                    want = model.readback(c, off)
                    assert got == want, f"op {op}: channel {c} register {off:#x} reads {got:#x}, want {want:#x}"
            check.absorb()
            answers = model.submit_answers(c)
            got = await reg_read(world, chan(c, ref.CH_SUBMIT))
            check.absorb()
            answers |= model.submit_answers(c)   # a completion may have landed meanwhile
            assert got in answers, f"op {op}: SUBMIT on channel {c} answered {got:#x}, legal {sorted(answers)}"
            busy_answers += got == 0
            req = model.submitted(c, got, entries[:count])
            if req is not None:
                check.outcomes[(c, req.ticket)] = outcome
        elif r < 0.9:
            lo = model.done[c]
            status = await reg_read(world, chan(c, ref.CH_STATUS))
            check.absorb()
            done = status & 0xFFFF_FFFF
            assert lo <= done <= model.done[c], f"op {op}: STATUS.done {done} outside [{lo}, {model.done[c]}]"
            assert (status >> 32) == int(done == model.posted[c]), f"op {op}: STATUS {status:#x}"
        elif r < 0.95:
            # Post-then-sync: wait until this channel is idle.
            while not (await reg_read(world, chan(c, ref.CH_STATUS))) >> 32 & 1:
                check.absorb()
            check.absorb()
            assert model.status(c) >> 32, (f"op {op}: channel {c} idle before the model completed it: "
                                           f"{check.match(world.finished[0]) if world.finished else 'no run seen'}")
        else:
            await reg_write(world, chan(c, ref.CH_ERROR), 0)
            model.err_word[c] = 0

    # Drain everything, then compare all the state.
    for c in range(HARTS):
        while not (await reg_read(world, chan(c, ref.CH_STATUS))) >> 32 & 1:
            check.absorb()
    for _ in range(50):
        await RisingEdge(dut.clock)
    check.absorb(final=True)
    assert not world.current and not world.finished
    assert all(not q for q in model.pending), "the unit went idle with requests the bench never saw run"
    for c in range(HARTS):
        assert await reg_read(world, chan(c, ref.CH_STATUS)) == model.status(c)
        assert await reg_read(world, chan(c, ref.CH_ERROR)) == model.err_word[c], f"ERROR of channel {c}"
    for off, key in [(ref.G_REQUESTS, "requests"), (ref.G_PAGES, "pages"), (ref.G_FALLBACKS, "fallbacks"),
                     (ref.G_ERRORS, "errors")]:
        got = await reg_read(world, UNIT_BASE + off)
        assert got == model.counters[key], f"counter {key}: {got}, model {model.counters[key]}"
    entries = await reg_read(world, UNIT_BASE + ref.G_ENTRIES)
    assert model.entries_lo <= entries <= model.entries_hi, f"CTR_ENTRIES {entries}"
    await RisingEdge(dut.clock)
    await FallingEdge(dut.clock)
    irq = val(dut, "irq")
    for c in range(HARTS):
        pend = await reg_read(world, chan(c, ref.CH_IRQ_PENDING))
        assert pend == int(model.posted[c] > 0), f"IRQ_PENDING of channel {c}"
        assert (irq >> c) & 1 == int(irq_en[c] and pend), f"interrupt line of channel {c}"
        await reg_write(world, chan(c, ref.CH_IRQ_PENDING), 1)
    await RisingEdge(dut.clock)
    await FallingEdge(dut.clock)
    assert val(dut, "irq") == 0
    dut._log.info(f"{check.checked} requests checked ({check.overflushed} flushed more than documented), "
                  f"{model.counters['errors']} errors, "
                  f"{model.counters['fallbacks']} fallbacks, {busy_answers} busy answers, {world.cycle} cycles")
    assert check.checked > n_ops // 5, "too few requests ran for the bench to mean much"


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
