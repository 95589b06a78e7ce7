//===- NvInfoTest.cpp - .nv.info record encoding --------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The byte strings are the records of ptxas 13.0's p01 sm_90 cubin
// (cubin-format.md §4.3).
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/NvInfo.h"

#include <gtest/gtest.h>

using namespace ptxas::object;

TEST(NvInfo, AttributeTable) {
  EXPECT_EQ(eiattrName(0x17), "KPARAM_INFO");
  EXPECT_EQ(eiattrName(0x5f), "MERCURY_ISA_VERSION");
  EXPECT_EQ(eiattrName(0x60), "");
  EXPECT_EQ(eiattrFormat(uint8_t(EIAttr::CBANK_PARAM_SIZE)), EIFormat::HVal);
  EXPECT_EQ(eiattrFormat(uint8_t(EIAttr::EXPLICIT_CLUSTER)), EIFormat::NVal);
  EXPECT_EQ(uint8_t(EIAttr::PARAM_CBANK), 0x0a);
  EXPECT_EQ(uint8_t(EIAttr::KPARAM_INFO_V2), 0x45);
}

TEST(NvInfo, DecodesPtxasRecords) {
  std::vector<uint8_t> Bytes = {
      0x04, 0x37, 0x04, 0x00, 0x82, 0x00, 0x00, 0x00, // CUDA_API_VERSION 130
      0x04, 0x17, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, // KPARAM_INFO
      0x01, 0x00, 0x08, 0x00, 0x00, 0xf0, 0x11, 0x00, //
      0x03, 0x1b, 0xff, 0x00,                         // MAXREG_COUNT 255
      0x01, 0x3e, 0x00, 0x00,                         // EXPLICIT_CLUSTER
      0x02, 0x4c, 0x08, 0x00,                         // NUM_BARRIERS 8
  };
  std::vector<InfoRecord> R;
  std::string Err;
  ASSERT_TRUE(decodeInfo(Bytes, R, Err)) << Err;
  ASSERT_EQ(R.size(), 5u);
  EXPECT_TRUE(R[0].is(EIAttr::CUDA_API_VERSION));
  EXPECT_EQ(R[0].u32(0), 130u);
  EXPECT_EQ(R[1].u16At(4), 1u); // ordinal
  EXPECT_EQ(R[1].u16At(6), 8u); // offset
  EXPECT_EQ(R[1].u32(2), 0x0011f000u);
  EXPECT_EQ(R[2].Value, 0xffu);
  EXPECT_EQ(R[3].Format, EIFormat::NVal);
  EXPECT_EQ(R[4].Value, 8u);
  std::vector<uint8_t> Again;
  encodeInfo(R, Again);
  EXPECT_EQ(Again, Bytes);
}

TEST(NvInfo, RejectsMalformed) {
  std::vector<InfoRecord> R;
  std::string Err;
  EXPECT_FALSE(decodeInfo(std::vector<uint8_t>{0x04, 0x2f, 0x08, 0x00, 1},
                          R, Err));
  EXPECT_NE(Err.find("truncated"), std::string::npos);
  R.clear();
  EXPECT_FALSE(decodeInfo(std::vector<uint8_t>{0x07, 0x2f, 0, 0}, R, Err));
  R.clear();
  EXPECT_FALSE(decodeInfo(std::vector<uint8_t>{0x04, 0x2f}, R, Err));
}

TEST(NvInfo, Builders) {
  std::vector<uint8_t> B;
  encodeInfo({InfoRecord::sval(EIAttr::REGCOUNT, {8, 8}),
              InfoRecord::hval(EIAttr::MERCURY_ISA_VERSION, 0x0101),
              InfoRecord::bval(EIAttr::BINDLESS_TEXTURE_BANK, 0),
              InfoRecord::nval(EIAttr::SW2861232_WAR)},
             B);
  std::vector<uint8_t> Want = {0x04, 0x2f, 0x08, 0x00, 8, 0, 0, 0, 8, 0, 0, 0,
                               0x03, 0x5f, 0x01, 0x01, 0x02, 0x15, 0x00, 0x00,
                               0x01, 0x35, 0x00, 0x00};
  EXPECT_EQ(B, Want);
}
