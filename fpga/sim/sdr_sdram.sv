// A model of the ULX3S's SDR SDRAM (32 MiB, 16 bits: 4 banks x 8192 rows x
// 512 columns; MT48LC16M16A2 on the boards the ULX3S documentation lists,
// IS42S16160 on others, the same geometry), written from the
// MT48LC16M16A2 data sheet for simulating a board SoC with its real
// controller. No SDRAM model is packaged in any registry this project may
// use, so the project has its own; it is simulation-only SystemVerilog
// (no delays: Verilator without --timing).
//
// What it does, on each rising edge of its clock pin: decodes the command
// (CS#, RAS#, CAS#, WE#), keeps each bank's open row, runs bursts of the
// mode register's length (1, 2, 4, 8; sequential) with its CAS latency (2
// or 3), masks written bytes with DQM (same cycle) and read bytes with DQM
// two cycles ahead, and drives DQ for a read word from the edge after its
// column access plus CL - 1 until the next edge (zero-delay: the word is
// valid at the edge CL cycles after its column access).
//
// What it checks, each breach counted in `errors` and printed with its
// cycle (a run must end with errors == 0; tests/fpga/test_sdram_model.py
// shows each check firing):
//   - power-up: 100 us of NOP or INHIBIT with CKE high, then PRECHARGE ALL,
//     two AUTO REFRESH and LOAD MODE REGISTER (the refreshes before or
//     after the mode register) before any ACTIVE
//   - the mode register: CL 2 or 3, a burst length of 1-8, sequential
//   - tRCD, tRP, tRAS (minimum and 120 us maximum), tRC, tRRD, tWR (the
//     last write's data to PRECHARGE), tRFC, tMRD; an ACTIVE to an open
//     bank, a READ or WRITE to a closed one, REFRESH or LOAD MODE REGISTER
//     with a bank open
//   - retention: every row of every bank refreshed (by AUTO REFRESH, which
//     takes the next row of all four banks, or by its own ACTIVE) at least
//     every 64 ms; an ACTIVE of a row older than that reads lost data
//   - the bus: a WRITE while read data is still due (the controller must
//     wait for it or mask it with DQM), CKE low (power-down and self
//     refresh are not modelled)
// The timings are in ns at the clock period CLK_PS, rounded up to cycles:
// the -75 speed grade's (the slower of those fitted), which IS42S16160-7
// also meets.
module sdr_sdram #(
  parameter integer CLK_PS = 40000,
  parameter integer ROW_BITS = 13,
  parameter integer COL_BITS = 9,
  parameter integer T_RCD_NS = 20,
  parameter integer T_RP_NS = 20,
  parameter integer T_RAS_NS = 44,
  parameter integer T_RAS_MAX_NS = 120000,
  parameter integer T_RC_NS = 66,
  parameter integer T_RRD_NS = 15,
  parameter integer T_WR_NS = 15,
  parameter integer T_RFC_NS = 66,
  parameter integer T_MRD_CK = 2,
  parameter integer T_REF_US = 64000,
  parameter integer T_INIT_US = 100
) (
  input  wire        clk,
  input  wire        cke,
  input  wire        cs_n,
  input  wire        ras_n,
  input  wire        cas_n,
  input  wire        we_n,
  input  wire [1:0]  ba,
  input  wire [12:0] a,
  input  wire [1:0]  dqm,
  inout  wire [15:0] dq,
  output reg  [31:0] errors,
  output reg         initialised
);
  localparam integer ROWS = 1 << ROW_BITS;
  function automatic longint cycles(input longint ps);
    return (ps + longint'(CLK_PS) - 1) / longint'(CLK_PS);
  endfunction
  localparam longint RCD = cycles(T_RCD_NS * 1000), RP = cycles(T_RP_NS * 1000), RAS = cycles(T_RAS_NS * 1000),
                     RAS_MAX = cycles(longint'(T_RAS_MAX_NS) * 1000), RC = cycles(T_RC_NS * 1000),
                     RRD = cycles(T_RRD_NS * 1000), WR = cycles(T_WR_NS * 1000), RFC = cycles(T_RFC_NS * 1000),
                     MRD = longint'(T_MRD_CK), REF = cycles(longint'(T_REF_US) * 1000000),
                     INIT = cycles(longint'(T_INIT_US) * 1000000);
  localparam longint NEVER = -1;  // no such event yet

  logic [15:0] mem [0:4 * ROWS * (1 << COL_BITS) - 1];
  longint refreshed [0:4 * ROWS - 1];  // when each row was last refreshed (NEVER: it holds nothing yet)
  longint now = 0;
  bit trace;

  // each bank: open, its row, when it was last activated, precharged, written
  logic [3:0] open_ = 0;
  logic [ROW_BITS-1:0] row [0:3];
  longint act_at [0:3], pre_at [0:3], wrote_at [0:3];
  logic [3:0] told_ras_max = 0;
  longint last_act = NEVER, last_ref = NEVER, last_mrs = NEVER;
  // power-up: PRECHARGE ALL after 100 us, then two refreshes and the mode register
  bit prechargedall = 0, mode_set = 0;
  int refreshes = 0;
  // the mode register
  int cl = 2, bl = 1;
  // the burst in progress
  bit burst_rd = 0, burst_wr = 0;
  logic [1:0] burst_bank = 0;
  logic [COL_BITS-1:0] burst_start = 0;
  int burst_beat = 0;  // the beat the next edge carries
  logic [ROW_BITS-1:0] ref_row = 0;
  // read words accessed one and two edges ago, on their way to DQ
  logic [1:0] pipe_valid = 0;
  logic [15:0] pipe_data [0:1];
  logic [1:0] dqm_before = 0;  // DQM at the edge before
  logic [1:0] drive = 0;       // per byte lane
  logic [15:0] dq_out = 0;
  assign dq[7:0] = drive[0] ? dq_out[7:0] : 8'bz;
  assign dq[15:8] = drive[1] ? dq_out[15:8] : 8'bz;

  initial begin
    errors = 0;
    initialised = 0;
    trace = $test$plusargs("sdram-trace");
    for (int i = 0; i < 4; i++) begin
      act_at[i] = NEVER; pre_at[i] = NEVER; wrote_at[i] = NEVER; row[i] = 0;
    end
    for (int i = 0; i < 4 * ROWS; i++) refreshed[i] = NEVER;
  end

  task automatic fail(input string what);
    errors = errors + 1;
    $display("sdram: cycle %0d: %s", now, what);
  endtask

  task automatic need(input longint since, input longint gap, input string what);
    if (since != NEVER && now - since < gap) fail(what);
  endtask

  function automatic logic [COL_BITS-1:0] beat_col(input logic [COL_BITS-1:0] start, input int n);
    // sequential, wrapping within the burst
    logic [COL_BITS-1:0] m = COL_BITS'(bl - 1);
    return (start & ~m) | ((start + COL_BITS'(n)) & m);
  endfunction

  function automatic int addr(input logic [1:0] b, input logic [COL_BITS-1:0] c);
    return int'({b, row[b], c});
  endfunction

  task automatic write_beat(input logic [COL_BITS-1:0] c);
    if (!dqm[0]) mem[addr(burst_bank, c)][7:0] = dq[7:0];
    if (!dqm[1]) mem[addr(burst_bank, c)][15:8] = dq[15:8];
    wrote_at[burst_bank] = now;
  endtask

  // Contents before the run, for a simulation that starts with a program
  // in memory instead of loading it over the wire (fpga/sim/board_main.cpp,
  // +load): the word at (bank, row, col), as if written and refreshed at
  // cycle 0, so that the row's 64 ms of retention count from there.
  export "DPI-C" function sdram_preload;
  function void sdram_preload(input int b, input int r, input int c, input shortint data);
    mem[int'({2'(b), ROW_BITS'(r), COL_BITS'(c)})] = data;
    refreshed[b * ROWS + r] = 0;
  endfunction

  task automatic precharge(input int b);
    if (open_[b]) begin
      need(act_at[b], RAS, "PRECHARGE before tRAS");
      need(wrote_at[b], WR, "PRECHARGE before tWR after the bank's last write");
      open_[b] = 0;
      pre_at[b] = now;
      told_ras_max[b] = 0;
      if (burst_bank == 2'(b)) begin burst_rd = 0; burst_wr = 0; end
    end
  endtask

  localparam logic [3:0] LMR = 4'b0000, REFRESH = 4'b0001, PRE = 4'b0010, ACT = 4'b0011,
                         WRITE = 4'b0100, READ = 4'b0101, BST = 4'b0110, NOP = 4'b0111;
  wire [3:0] cmd = {cs_n, ras_n, cas_n, we_n};

  always @(posedge clk) begin
    // A read word accessed CL - 1 edges ago is driven until the next edge,
    // each byte unless DQM masked it two edges ahead of that edge.
    drive <= 0;
    if (cl == 2 ? pipe_valid[0] : pipe_valid[1]) begin
      dq_out <= cl == 2 ? pipe_data[0] : pipe_data[1];
      drive <= ~dqm_before;
    end
    pipe_valid <= {pipe_valid[0], 1'b0};
    pipe_data[1] <= pipe_data[0];
    dqm_before <= dqm;

    if (!cke) fail("CKE low: power-down and self refresh are not modelled");
    if (!cs_n && cmd != NOP && !prechargedall && now < INIT) fail("a command within 100 us of power-up");
    if (!cs_n && !initialised && (cmd == ACT || cmd == READ || cmd == WRITE))
      fail("ACTIVE, READ or WRITE before the power-up sequence ended");
    for (int i = 0; i < 4; i++)
      if (open_[i] && now - act_at[i] > RAS_MAX && !told_ras_max[i]) begin
        fail("a row open longer than tRAS max (120 us)");
        told_ras_max[i] = 1;
      end

    // A write burst goes on unless a command cuts it short.
    if (burst_wr && (cs_n || !(cmd == READ || cmd == WRITE || cmd == BST || cmd == PRE))) begin
      write_beat(beat_col(burst_start, burst_beat));
      burst_beat++;
      if (burst_beat == bl) burst_wr = 0;
    end

    if (!cs_n) case (cmd)
      LMR: begin
        if (open_ != 0) fail("LOAD MODE REGISTER with a bank open");
        for (int i = 0; i < 4; i++) need(pre_at[i], RP, "LOAD MODE REGISTER before tRP");
        need(last_ref, RFC, "LOAD MODE REGISTER before tRFC");
        if (a[6:4] != 2 && a[6:4] != 3) fail("mode register: CAS latency not 2 or 3");
        if (a[2:0] > 3) fail("mode register: burst length not 1, 2, 4 or 8");
        if (a[3]) fail("mode register: interleaved bursts are not modelled");
        if (a[12:10] != 0 || a[8:7] != 0) fail("mode register: reserved bits set");
        cl = a[4] ? 3 : 2;
        bl = 1 << a[1:0];
        last_mrs = now;
        if (prechargedall) mode_set = 1;
        if (trace) $display("sdram: cycle %0d: LOAD MODE REGISTER %h: CL %0d, BL %0d", now, a, cl, bl);
      end
      REFRESH: begin
        if (open_ != 0) fail("AUTO REFRESH with a bank open");
        for (int i = 0; i < 4; i++) need(pre_at[i], RP, "AUTO REFRESH before tRP");
        need(last_ref, RFC, "AUTO REFRESH before tRFC");
        need(last_mrs, MRD, "AUTO REFRESH before tMRD");
        for (int i = 0; i < 4; i++) refreshed[i * ROWS + int'(ref_row)] = now;
        ref_row = ref_row + 1;
        last_ref = now;
        if (prechargedall && refreshes < 2) refreshes++;
      end
      PRE: begin
        need(last_mrs, MRD, "PRECHARGE before tMRD");
        if (a[10]) begin
          for (int i = 0; i < 4; i++) precharge(i);
          if (now >= INIT) prechargedall = 1;
        end else precharge(int'(ba));
      end
      ACT: begin
        if (open_[ba]) fail("ACTIVE to a bank with a row open");
        need(pre_at[ba], RP, "ACTIVE before tRP");
        need(act_at[ba], RC, "ACTIVE before tRC");
        need(last_act, RRD, "ACTIVE before tRRD");
        need(last_ref, RFC, "ACTIVE before tRFC");
        need(last_mrs, MRD, "ACTIVE before tMRD");
        if (refreshed[int'({ba, a[ROW_BITS-1:0]})] != NEVER && now - refreshed[int'({ba, a[ROW_BITS-1:0]})] > REF)
          fail("ACTIVE of a row not refreshed for 64 ms: its data is lost");
        refreshed[int'({ba, a[ROW_BITS-1:0]})] = now;
        open_[ba] = 1;
        row[ba] = a[ROW_BITS-1:0];
        act_at[ba] = now;
        last_act = now;
      end
      READ, WRITE: begin
        if (!open_[ba]) fail("READ or WRITE to a bank with no row open");
        need(act_at[ba], RCD, "READ or WRITE before tRCD");
        if (cmd == WRITE && (pipe_valid != 0 || drive != 0)) fail("WRITE while read data is still due");
        if (a[10]) fail("auto precharge is not modelled");
        burst_rd = cmd == READ;
        burst_wr = cmd == WRITE;
        burst_bank = ba;
        burst_start = a[COL_BITS-1:0];
        burst_beat = 0;
        if (cmd == WRITE) begin
          write_beat(a[COL_BITS-1:0]);
          burst_beat = 1;
          if (bl == 1) burst_wr = 0;
        end
      end
      BST: begin burst_rd = 0; burst_wr = 0; end
      default: ;  // NOP
    endcase

    // A read burst's column access at this edge.
    if (burst_rd) begin
      pipe_valid[0] <= 1;
      pipe_data[0] <= mem[addr(burst_bank, beat_col(burst_start, burst_beat))];
      burst_beat++;
      if (burst_beat == bl) burst_rd = 0;
    end

    if (!initialised && mode_set && refreshes >= 2) initialised <= 1;
    if (trace && !cs_n && cmd != NOP)
      $display("sdram: cycle %0d: command %b bank %0d a %h dqm %b", now, cmd, ba, a, dqm);
    now <= now + 1;
  end
endmodule
