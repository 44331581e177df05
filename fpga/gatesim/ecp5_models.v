// Behavioural models of the ECP5 primitives that yosys's synth_ecp5 leaves
// as black boxes (its cells_sim.v has no DP16KD or MULT18X18D), for a
// gate-level simulation of a synthesised board netlist. Each models only
// the modes the ULX3S netlists use and refuses the others when the model
// is built ($fatal at time 0): a netlist with another mode stops, it does
// not simulate wrongly. tests/cocotb/test_ecp5_models.py checks them
// against behavioural memories and multipliers that the flow's yosys maps
// onto them.
//
// DP16KD, 18 Kb of block RAM, as yosys's brams_map_16kd.v instantiates it:
// - both ports 9 or 18 bits wide (true dual port): ADx[13:3] (9) or
//   ADx[13:4] (18) the word, at 18 bits ADx[1:0] the byte enables (9 bits
//   each) of a write;
// - or 36 bits, port A writing (DIB:DIA, ADA[3:0] its byte enables) and
//   port B reading (onto DOB:DOA), ADx[13:5] the word;
// - outputs not registered (REGMODE NOREG: the word appears after the edge
//   that samples the address, and stays while CEx is low); WRITEMODE
//   NORMAL (a write leaves the output as it was), WRITETHROUGH (it shows
//   the new word) or READBEFOREWRITE (the old one); a port works only while
//   its chip selects equal its CSDECODE; RSTx clears its output (RESETMODE
//   SYNC: at the edge; ASYNC: at once).
// Storage is 1,024 rows of 18 bits; INITVAL_00..3F hold 16 rows each, a
// row in the low 18 bits of each 20-bit slot. A 9-bit word a is half
// a[0] of row a >> 1 (the low half for even a), a 36-bit word w rows 2w
// (its bits 17:0) and 2w + 1, as yosys lays out INIT.
module DP16KD (
  input  DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
  input  ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0,
  input  CEA, OCEA, CLKA, WEA, RSTA, CSA2, CSA1, CSA0,
  output DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
  input  DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
  input  ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0,
  input  CEB, OCEB, CLKB, WEB, RSTB, CSB2, CSB1, CSB0,
  output DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);
  parameter DATA_WIDTH_A = 18;
  parameter DATA_WIDTH_B = 18;
  parameter REGMODE_A = "NOREG";
  parameter REGMODE_B = "NOREG";
  parameter RESETMODE = "SYNC";
  parameter ASYNC_RESET_RELEASE = "SYNC";
  parameter CSDECODE_A = "0b000";
  parameter CSDECODE_B = "0b000";
  parameter WRITEMODE_A = "NORMAL";
  parameter WRITEMODE_B = "NORMAL";
  parameter CLKAMUX = "CLKA";
  parameter CLKBMUX = "CLKB";
  parameter GSR = "ENABLED";
  parameter INIT_DATA = "STATIC";
  parameter WID = 0;
  parameter [319:0] INITVAL_00 = 320'h0;
  parameter [319:0] INITVAL_01 = 320'h0;
  parameter [319:0] INITVAL_02 = 320'h0;
  parameter [319:0] INITVAL_03 = 320'h0;
  parameter [319:0] INITVAL_04 = 320'h0;
  parameter [319:0] INITVAL_05 = 320'h0;
  parameter [319:0] INITVAL_06 = 320'h0;
  parameter [319:0] INITVAL_07 = 320'h0;
  parameter [319:0] INITVAL_08 = 320'h0;
  parameter [319:0] INITVAL_09 = 320'h0;
  parameter [319:0] INITVAL_0A = 320'h0;
  parameter [319:0] INITVAL_0B = 320'h0;
  parameter [319:0] INITVAL_0C = 320'h0;
  parameter [319:0] INITVAL_0D = 320'h0;
  parameter [319:0] INITVAL_0E = 320'h0;
  parameter [319:0] INITVAL_0F = 320'h0;
  parameter [319:0] INITVAL_10 = 320'h0;
  parameter [319:0] INITVAL_11 = 320'h0;
  parameter [319:0] INITVAL_12 = 320'h0;
  parameter [319:0] INITVAL_13 = 320'h0;
  parameter [319:0] INITVAL_14 = 320'h0;
  parameter [319:0] INITVAL_15 = 320'h0;
  parameter [319:0] INITVAL_16 = 320'h0;
  parameter [319:0] INITVAL_17 = 320'h0;
  parameter [319:0] INITVAL_18 = 320'h0;
  parameter [319:0] INITVAL_19 = 320'h0;
  parameter [319:0] INITVAL_1A = 320'h0;
  parameter [319:0] INITVAL_1B = 320'h0;
  parameter [319:0] INITVAL_1C = 320'h0;
  parameter [319:0] INITVAL_1D = 320'h0;
  parameter [319:0] INITVAL_1E = 320'h0;
  parameter [319:0] INITVAL_1F = 320'h0;
  parameter [319:0] INITVAL_20 = 320'h0;
  parameter [319:0] INITVAL_21 = 320'h0;
  parameter [319:0] INITVAL_22 = 320'h0;
  parameter [319:0] INITVAL_23 = 320'h0;
  parameter [319:0] INITVAL_24 = 320'h0;
  parameter [319:0] INITVAL_25 = 320'h0;
  parameter [319:0] INITVAL_26 = 320'h0;
  parameter [319:0] INITVAL_27 = 320'h0;
  parameter [319:0] INITVAL_28 = 320'h0;
  parameter [319:0] INITVAL_29 = 320'h0;
  parameter [319:0] INITVAL_2A = 320'h0;
  parameter [319:0] INITVAL_2B = 320'h0;
  parameter [319:0] INITVAL_2C = 320'h0;
  parameter [319:0] INITVAL_2D = 320'h0;
  parameter [319:0] INITVAL_2E = 320'h0;
  parameter [319:0] INITVAL_2F = 320'h0;
  parameter [319:0] INITVAL_30 = 320'h0;
  parameter [319:0] INITVAL_31 = 320'h0;
  parameter [319:0] INITVAL_32 = 320'h0;
  parameter [319:0] INITVAL_33 = 320'h0;
  parameter [319:0] INITVAL_34 = 320'h0;
  parameter [319:0] INITVAL_35 = 320'h0;
  parameter [319:0] INITVAL_36 = 320'h0;
  parameter [319:0] INITVAL_37 = 320'h0;
  parameter [319:0] INITVAL_38 = 320'h0;
  parameter [319:0] INITVAL_39 = 320'h0;
  parameter [319:0] INITVAL_3A = 320'h0;
  parameter [319:0] INITVAL_3B = 320'h0;
  parameter [319:0] INITVAL_3C = 320'h0;
  parameter [319:0] INITVAL_3D = 320'h0;
  parameter [319:0] INITVAL_3E = 320'h0;
  parameter [319:0] INITVAL_3F = 320'h0;

  localparam SDP = DATA_WIDTH_A == 36;
  // A CSDECODE string's digits ("0bXYZ": CSx2 CSx1 CSx0), from the low bit of each character
  localparam [2:0] CS_A = {CSDECODE_A[16], CSDECODE_A[8], CSDECODE_A[0]};
  localparam [2:0] CS_B = {CSDECODE_B[16], CSDECODE_B[8], CSDECODE_B[0]};
  initial begin
    if (!(((DATA_WIDTH_A == 9 || DATA_WIDTH_A == 18) && DATA_WIDTH_B == DATA_WIDTH_A) ||
          (DATA_WIDTH_A == 36 && DATA_WIDTH_B == 36)))
      $fatal(1, "DP16KD: widths %0d and %0d are not modelled (fpga/gatesim/ecp5_models.v)", DATA_WIDTH_A,
             DATA_WIDTH_B);
    if (REGMODE_A != "NOREG" || REGMODE_B != "NOREG")
      $fatal(1, "DP16KD: only REGMODE NOREG is modelled (fpga/gatesim/ecp5_models.v)");
    if (CLKAMUX != "CLKA" || CLKBMUX != "CLKB")
      $fatal(1, "DP16KD: inverted clocks are not modelled (fpga/gatesim/ecp5_models.v)");
    if (RESETMODE != "SYNC" && RESETMODE != "ASYNC")
      $fatal(1, "DP16KD: RESETMODE %s is not modelled (fpga/gatesim/ecp5_models.v)", RESETMODE);
  end

  function [319:0] initval(input integer i);
    case (i)
      0: initval = INITVAL_00;
      1: initval = INITVAL_01;
      2: initval = INITVAL_02;
      3: initval = INITVAL_03;
      4: initval = INITVAL_04;
      5: initval = INITVAL_05;
      6: initval = INITVAL_06;
      7: initval = INITVAL_07;
      8: initval = INITVAL_08;
      9: initval = INITVAL_09;
      10: initval = INITVAL_0A;
      11: initval = INITVAL_0B;
      12: initval = INITVAL_0C;
      13: initval = INITVAL_0D;
      14: initval = INITVAL_0E;
      15: initval = INITVAL_0F;
      16: initval = INITVAL_10;
      17: initval = INITVAL_11;
      18: initval = INITVAL_12;
      19: initval = INITVAL_13;
      20: initval = INITVAL_14;
      21: initval = INITVAL_15;
      22: initval = INITVAL_16;
      23: initval = INITVAL_17;
      24: initval = INITVAL_18;
      25: initval = INITVAL_19;
      26: initval = INITVAL_1A;
      27: initval = INITVAL_1B;
      28: initval = INITVAL_1C;
      29: initval = INITVAL_1D;
      30: initval = INITVAL_1E;
      31: initval = INITVAL_1F;
      32: initval = INITVAL_20;
      33: initval = INITVAL_21;
      34: initval = INITVAL_22;
      35: initval = INITVAL_23;
      36: initval = INITVAL_24;
      37: initval = INITVAL_25;
      38: initval = INITVAL_26;
      39: initval = INITVAL_27;
      40: initval = INITVAL_28;
      41: initval = INITVAL_29;
      42: initval = INITVAL_2A;
      43: initval = INITVAL_2B;
      44: initval = INITVAL_2C;
      45: initval = INITVAL_2D;
      46: initval = INITVAL_2E;
      47: initval = INITVAL_2F;
      48: initval = INITVAL_30;
      49: initval = INITVAL_31;
      50: initval = INITVAL_32;
      51: initval = INITVAL_33;
      52: initval = INITVAL_34;
      53: initval = INITVAL_35;
      54: initval = INITVAL_36;
      55: initval = INITVAL_37;
      56: initval = INITVAL_38;
      57: initval = INITVAL_39;
      58: initval = INITVAL_3A;
      59: initval = INITVAL_3B;
      60: initval = INITVAL_3C;
      61: initval = INITVAL_3D;
      62: initval = INITVAL_3E;
      63: initval = INITVAL_3F;
      default: initval = 320'h0;
    endcase
  endfunction

  /* verilator lint_off MULTIDRIVEN */  // the two ports write it, and in 36-bit mode port B drives DOA
  reg [17:0] mem [0:1023];
  integer r;
  initial for (r = 0; r < 1024; r = r + 1) mem[r] = initval(r >> 4) >> ((r & 15) * 20);

  wire [17:0] dia = {DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0}, dib = {DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0};
  wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0}, adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0};
  wire sela = CEA && {CSA2, CSA1, CSA0} == CS_A, selb = CEB && {CSB2, CSB1, CSB0} == CS_B;
  reg [17:0] doa = 18'd0, dob = 18'd0;
  /* verilator lint_on MULTIDRIVEN */
  assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} = doa;
  assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} = dob;

  // One port of the true dual-port modes: the row its word is in, the row
  // after a write of `din` with `we` and byte enables `be`, and the word the
  // output shows.
  function [17:0] written(input [17:0] row, input [13:0] ad, input [17:0] din, input integer width);
    if (width == 9) written = ad[3] ? {din[8:0], row[8:0]} : {row[17:9], din[8:0]};
    else written = {ad[1] ? din[17:9] : row[17:9], ad[0] ? din[8:0] : row[8:0]};
  endfunction
  function [17:0] shown(input [17:0] row, input [13:0] ad, input integer width);
    if (width == 9) shown = {9'd0, ad[3] ? row[17:9] : row[8:0]};
    else shown = row;
  endfunction
  function writes(input we, input [13:0] ad, input integer width);
    writes = we && (width == 9 || ad[1:0] != 2'b00);
  endfunction

  wire async = RESETMODE == "ASYNC";
  wire arsta = RSTA && async, arstb = RSTB && async;
  // Port A: a true dual port, or the 36-bit write port
  always @(posedge CLKA or posedge arsta) begin
    if (RSTA && !SDP) doa <= 18'd0;
    else if (sela && SDP) begin
      if (ada[0]) mem[{ada[13:5], 1'b0}][8:0] <= dia[8:0];
      if (ada[1]) mem[{ada[13:5], 1'b0}][17:9] <= dia[17:9];
      if (ada[2]) mem[{ada[13:5], 1'b1}][8:0] <= dib[8:0];
      if (ada[3]) mem[{ada[13:5], 1'b1}][17:9] <= dib[17:9];
    end else if (sela) begin
      if (writes(WEA, ada, DATA_WIDTH_A)) begin
        mem[ada[13:4]] <= written(mem[ada[13:4]], ada, dia, DATA_WIDTH_A);
        if (WRITEMODE_A == "WRITETHROUGH") doa <= shown(written(mem[ada[13:4]], ada, dia, DATA_WIDTH_A), ada,
                                                        DATA_WIDTH_A);
        else if (WRITEMODE_A == "READBEFOREWRITE") doa <= shown(mem[ada[13:4]], ada, DATA_WIDTH_A);
      end else doa <= shown(mem[ada[13:4]], ada, DATA_WIDTH_A);
    end
  end
  // Port B: a true dual port, or the 36-bit read port (onto DOB:DOA)
  always @(posedge CLKB or posedge arstb) begin
    if (RSTB) begin
      dob <= 18'd0;
      if (SDP) doa <= 18'd0;
    end else if (selb && SDP) begin
      doa <= mem[{adb[13:5], 1'b0}];
      dob <= mem[{adb[13:5], 1'b1}];
    end else if (selb) begin
      if (writes(WEB, adb, DATA_WIDTH_B)) begin
        mem[adb[13:4]] <= written(mem[adb[13:4]], adb, dib, DATA_WIDTH_B);
        if (WRITEMODE_B == "WRITETHROUGH") dob <= shown(written(mem[adb[13:4]], adb, dib, DATA_WIDTH_B), adb,
                                                        DATA_WIDTH_B);
        else if (WRITEMODE_B == "READBEFOREWRITE") dob <= shown(mem[adb[13:4]], adb, DATA_WIDTH_B);
      end else dob <= shown(mem[adb[13:4]], adb, DATA_WIDTH_B);
    end
  end
endmodule

// MULT18X18D as yosys's mul2dsp leaves it: combinational (every REG_* NONE),
// P = A x B, each signed or not by SIGNEDA and SIGNEDB; the cascade and
// shift outputs are not modelled (driven 0), nor the C input.
module MULT18X18D (
  input  A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0,
  input  B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0,
  input  C17, C16, C15, C14, C13, C12, C11, C10, C9, C8, C7, C6, C5, C4, C3, C2, C1, C0,
  input  SIGNEDA, SIGNEDB, SOURCEA, SOURCEB,
  input  CLK3, CLK2, CLK1, CLK0, CE3, CE2, CE1, CE0, RST3, RST2, RST1, RST0,
  input  SRIA17, SRIA16, SRIA15, SRIA14, SRIA13, SRIA12, SRIA11, SRIA10, SRIA9, SRIA8, SRIA7, SRIA6, SRIA5, SRIA4, SRIA3, SRIA2, SRIA1, SRIA0,
  input  SRIB17, SRIB16, SRIB15, SRIB14, SRIB13, SRIB12, SRIB11, SRIB10, SRIB9, SRIB8, SRIB7, SRIB6, SRIB5, SRIB4, SRIB3, SRIB2, SRIB1, SRIB0,
  output SROA17, SROA16, SROA15, SROA14, SROA13, SROA12, SROA11, SROA10, SROA9, SROA8, SROA7, SROA6, SROA5, SROA4, SROA3, SROA2, SROA1, SROA0,
  output SROB17, SROB16, SROB15, SROB14, SROB13, SROB12, SROB11, SROB10, SROB9, SROB8, SROB7, SROB6, SROB5, SROB4, SROB3, SROB2, SROB1, SROB0,
  output ROA17, ROA16, ROA15, ROA14, ROA13, ROA12, ROA11, ROA10, ROA9, ROA8, ROA7, ROA6, ROA5, ROA4, ROA3, ROA2, ROA1, ROA0,
  output ROB17, ROB16, ROB15, ROB14, ROB13, ROB12, ROB11, ROB10, ROB9, ROB8, ROB7, ROB6, ROB5, ROB4, ROB3, ROB2, ROB1, ROB0,
  output ROC17, ROC16, ROC15, ROC14, ROC13, ROC12, ROC11, ROC10, ROC9, ROC8, ROC7, ROC6, ROC5, ROC4, ROC3, ROC2, ROC1, ROC0,
  output P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19, P18, P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0,
  output SIGNEDP
);
  parameter REG_INPUTA_CLK = "NONE";
  parameter REG_INPUTA_CE = "CE0";
  parameter REG_INPUTA_RST = "RST0";
  parameter REG_INPUTB_CLK = "NONE";
  parameter REG_INPUTB_CE = "CE0";
  parameter REG_INPUTB_RST = "RST0";
  parameter REG_INPUTC_CLK = "NONE";
  parameter REG_INPUTC_CE = "CE0";
  parameter REG_INPUTC_RST = "RST0";
  parameter REG_PIPELINE_CLK = "NONE";
  parameter REG_PIPELINE_CE = "CE0";
  parameter REG_PIPELINE_RST = "RST0";
  parameter REG_OUTPUT_CLK = "NONE";
  parameter REG_OUTPUT_CE = "CE0";
  parameter REG_OUTPUT_RST = "RST0";
  parameter CLK0_DIV = "ENABLED";
  parameter CLK1_DIV = "ENABLED";
  parameter CLK2_DIV = "ENABLED";
  parameter CLK3_DIV = "ENABLED";
  parameter HIGHSPEED_CLK = "NONE";
  parameter GSR = "ENABLED";
  parameter CAS_MATCH_REG = "FALSE";
  parameter SOURCEB_MODE = "B_SHIFT";
  parameter MULT_BYPASS = "DISABLED";
  parameter RESETMODE = "SYNC";
  initial
    if (REG_INPUTA_CLK != "NONE" || REG_INPUTB_CLK != "NONE" || REG_INPUTC_CLK != "NONE" ||
        REG_PIPELINE_CLK != "NONE" || REG_OUTPUT_CLK != "NONE" || MULT_BYPASS != "DISABLED")
      $fatal(1, "MULT18X18D: only the combinational multiplier is modelled (fpga/gatesim/ecp5_models.v)");

  wire [17:0] a = {A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0}, b = {B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0};
  wire signed [36:0] sa = {{19{SIGNEDA & a[17]}}, a}, sb = {{19{SIGNEDB & b[17]}}, b};
  wire signed [73:0] p = sa * sb;
  assign {P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19, P18, P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0} = p[35:0];
  assign SIGNEDP = SIGNEDA | SIGNEDB;
  assign {ROA17, ROA16, ROA15, ROA14, ROA13, ROA12, ROA11, ROA10, ROA9, ROA8, ROA7, ROA6, ROA5, ROA4, ROA3, ROA2, ROA1, ROA0} = a;
  assign {ROB17, ROB16, ROB15, ROB14, ROB13, ROB12, ROB11, ROB10, ROB9, ROB8, ROB7, ROB6, ROB5, ROB4, ROB3, ROB2, ROB1, ROB0} = b;
  assign {ROC17, ROC16, ROC15, ROC14, ROC13, ROC12, ROC11, ROC10, ROC9, ROC8, ROC7, ROC6, ROC5, ROC4, ROC3, ROC2, ROC1, ROC0} = {C17, C16, C15, C14, C13, C12, C11, C10, C9, C8, C7, C6, C5, C4, C3, C2, C1, C0};
  assign {SROA17, SROA16, SROA15, SROA14, SROA13, SROA12, SROA11, SROA10, SROA9, SROA8, SROA7, SROA6, SROA5, SROA4, SROA3, SROA2, SROA1, SROA0} = 18'd0;
  assign {SROB17, SROB16, SROB15, SROB14, SROB13, SROB12, SROB11, SROB10, SROB9, SROB8, SROB7, SROB6, SROB5, SROB4, SROB3, SROB2, SROB1, SROB0} = 18'd0;
endmodule
