"""cocotb bench of the FlushAgent alone (hw/tile/FlushAgent.scala).

Random commands arrive with random gaps; the D$ port, the core's use of the
ITLB/PTW sfence inputs, the D$ `ordered` signal and the I$ `fetchIdle`
signal change at random every cycle. The agent must carry out exactly what shootdown_ref.agent_events says,
in order, and every cycle must obey the port rules below."""
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer

from shootdown_ref import agent_events

PERIOD_NS = 10


def field(dut, name):
    return int(getattr(dut, name).value)


QUIET_CYCLES = 200


async def reset(dut):
    dut.reset.value = 1
    for name in ["io_port_cmd_valid", "io_dtlb_ready", "io_sfenceFree", "io_ordered", "io_fetchIdle"]:
        getattr(dut, name).value = 0
    for _ in range(3):
        await RisingEdge(dut.clock)
    dut.reset.value = 0


async def run(dut, n_cmds, p_end, p_ready, p_free, p_ordered, p_valid, p_fetch_idle=0.8):
    cocotb.start_soon(Clock(dut.clock, PERIOD_NS, units="ns").start())
    await reset(dut)
    def end():
        # The unit's END names the ITLB flush: kind ASID (2) or ALL (3).
        return {"end": 1, "kind": random.choice((2, 3)), "vpn": 0, "asid": random.getrandbits(16), "nonleaf": 0}
    cmds = []
    for _ in range(n_cmds):
        if random.random() < p_end:
            cmds.append(end())
        else:
            cmds.append({"end": 0, "kind": random.randrange(4), "vpn": random.getrandbits(36),
                         "asid": random.getrandbits(16), "nonleaf": int(random.random() < 0.3)})
    cmds.append(end())
    want = agent_events(cmds)
    got = []
    ptw_flushes, dtlb_flushes = [], []
    sent = 0
    block_run = 0          # consecutive cycles blockCore has been high
    idle_cycles = 0
    cycle = 0
    # After the last expected event the bench keeps the clock and the
    # random inputs going for QUIET_CYCLES: a trailing spurious flush or
    # acknowledgement is an event too many, and fails the comparison below.
    quiet = 0
    while len(got) < len(want) or quiet < QUIET_CYCLES:
        quiet += len(got) >= len(want)
        await FallingEdge(dut.clock)
        cycle += 1
        # Inputs for the coming rising edge.
        offer = sent < len(cmds) and random.random() < p_valid
        dut.io_port_cmd_valid.value = int(offer)
        if sent < len(cmds):
            c = cmds[sent]
            dut.io_port_cmd_bits_end.value = c["end"]
            dut.io_port_cmd_bits_kind.value = c["kind"]
            dut.io_port_cmd_bits_vpn.value = c["vpn"]
            dut.io_port_cmd_bits_asid.value = c["asid"]
            dut.io_port_cmd_bits_nonLeaf.value = c["nonleaf"]
        dut.io_dtlb_ready.value = int(random.random() < p_ready)
        free = random.random() < p_free
        dut.io_sfenceFree.value = int(free)
        ordered = random.random() < p_ordered
        dut.io_ordered.value = int(ordered)
        fetch_idle = random.random() < p_fetch_idle
        dut.io_fetchIdle.value = int(fetch_idle)
        await Timer(1, units="ns")
        # Sample this cycle's outputs.
        if offer and field(dut, "io_port_cmd_ready"):
            sent += 1
        dtlb = field(dut, "io_dtlb_valid")
        dtlb_fire = dtlb and field(dut, "io_dtlb_ready")
        ptw = field(dut, "io_ptw_valid")
        itlb = field(dut, "io_itlb_valid")
        block = field(dut, "io_blockCore")
        ack = field(dut, "io_port_ack")
        where = f"cycle {cycle}"
        assert not (dtlb and not free), f"{where}: DTLB/PTW flush offered while the core drives the sfence input"
        assert not (itlb and not free), f"{where}: ITLB flush while the core drives the sfence input"
        assert not (itlb and dtlb), f"{where}: ITLB and DTLB flushes in one cycle"
        # The PTW must never lag the DTLB: by the cycle the D$ takes a flush,
        # the PTW has had the same flush (a walk answering in between would
        # refill the DTLB from a stale L2 entry), except that a NONLEAF flush
        # names no VA there.
        if ptw:
            ptw_flushes.append([field(dut, f"io_ptw_bits_{f}") for f in ("rs1", "rs2", "vpn", "asid")])
        if dtlb_fire:
            bits = [field(dut, f"io_dtlb_bits_{f}") for f in ("rs1", "rs2", "vpn", "asid")]
            dtlb_flushes.append(bits)
            k = len(dtlb_flushes)
            assert len(ptw_flushes) >= k, f"{where}: the DTLB took flush {k} before the PTW had it"
            p = ptw_flushes[k - 1]
            assert p[1:] == bits[1:], f"{where}: the PTW had {p} for the DTLB's {bits}"
            got.append(("flush", *bits, p[0]))
        if itlb:
            assert field(dut, "io_itlb_bits_rs1") == 0, f"{where}: the ITLB only gets whole flushes"
            rs2 = field(dut, "io_itlb_bits_rs2")
            got.append(("itlb", rs2, field(dut, "io_itlb_bits_asid") if rs2 else None))
        if ack:
            assert block and ordered and fetch_idle and block_run >= 2, \
                f"{where}: ack without a drain (blockCore for {block_run} cycles, ordered={int(ordered)}, " \
                f"fetchIdle={int(fetch_idle)})"
            got.append(("ack",))
        block_run = block_run + 1 if block else 0
        n = len(got)
        assert got == want[:n], (f"{where}: event {n - 1} is {got[-1]}, want "
                                 f"{want[n - 1] if n <= len(want) else 'none (all ' + str(len(want)) + ' came)'}")
        idle_cycles = 0 if (dtlb_fire or itlb or ack) else idle_cycles + 1
        assert idle_cycles < 2000, f"{where}: the agent made no progress for 2000 cycles"
    dut._log.info(f"{len(cmds)} commands, {len(want)} events in {cycle} cycles")


@cocotb.test()
async def random_stream(dut):
    """Mostly-ready ports: the agent keeps pace."""
    await run(dut, n_cmds=600, p_end=0.1, p_ready=0.8, p_free=0.9, p_ordered=0.7, p_valid=0.8)


@cocotb.test()
async def hostile_ports(dut):
    """The D$ rarely ready, the core often using the sfence inputs, `ordered`
    rarely high: slower, never wrong."""
    await run(dut, n_cmds=300, p_end=0.2, p_ready=0.2, p_free=0.4, p_ordered=0.1, p_valid=0.5, p_fetch_idle=0.3)
