//===- NvInfo.cpp - .nv.info record encoding ------------------------------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Record layout (cubin-format.md §4.1): u8 format, u8 attribute, then
// NVal: u16 0; BVal: u8 value, u8 0; HVal: u16 value; SVal: u16 size and
// that many bytes. Records are packed with no padding.
//
//===----------------------------------------------------------------------===//
#include "ptxas-alt/Object/NvInfo.h"

#include "llvm/Support/Endian.h"

using namespace ptxas::object;

namespace {
struct AttrRow {
  llvm::StringRef Name;
  EIFormat Format;
};
constexpr unsigned NumAttrs = 0x60;
const AttrRow *attrTable() {
  static AttrRow Rows[NumAttrs] = {};
  static bool Init = [] {
#define EIATTR(Id, N, F) Rows[Id] = {#N, EIFormat::F};
#include "ptxas-alt/Object/NvInfoAttrs.def"
    return true;
  }();
  (void)Init;
  return Rows;
}
} // namespace

llvm::StringRef ptxas::object::eiattrName(uint8_t Id) {
  return Id < NumAttrs ? attrTable()[Id].Name : llvm::StringRef();
}

EIFormat ptxas::object::eiattrFormat(uint8_t Id) {
  return Id < NumAttrs ? attrTable()[Id].Format : EIFormat::Any;
}

uint32_t InfoRecord::u32(unsigned I) const {
  if (I * 4 + 4 > Payload.size())
    return 0;
  return llvm::support::endian::read32le(Payload.data() + I * 4);
}

uint16_t InfoRecord::u16At(unsigned Byte) const {
  if (Byte + 2 > Payload.size())
    return 0;
  return llvm::support::endian::read16le(Payload.data() + Byte);
}

InfoRecord InfoRecord::raw(EIFormat F, uint8_t Id, uint16_t V,
                           llvm::ArrayRef<uint8_t> Bytes) {
  InfoRecord R;
  R.Format = F;
  R.Attr = Id;
  R.Value = V;
  R.Payload.assign(Bytes.begin(), Bytes.end());
  return R;
}

InfoRecord InfoRecord::nval(EIAttr A) {
  return raw(EIFormat::NVal, uint8_t(A), 0);
}
InfoRecord InfoRecord::bval(EIAttr A, uint8_t V) {
  return raw(EIFormat::BVal, uint8_t(A), V);
}
InfoRecord InfoRecord::hval(EIAttr A, uint16_t V) {
  return raw(EIFormat::HVal, uint8_t(A), V);
}
InfoRecord InfoRecord::svalBytes(EIAttr A, llvm::ArrayRef<uint8_t> Bytes) {
  return raw(EIFormat::SVal, uint8_t(A), 0, Bytes);
}
InfoRecord InfoRecord::sval(EIAttr A, llvm::ArrayRef<uint32_t> Words) {
  std::vector<uint8_t> B(Words.size() * 4);
  for (size_t I = 0; I != Words.size(); ++I)
    llvm::support::endian::write32le(B.data() + I * 4, Words[I]);
  return svalBytes(A, B);
}

bool ptxas::object::decodeInfo(llvm::ArrayRef<uint8_t> Data,
                               std::vector<InfoRecord> &Out,
                               std::string &Err) {
  size_t P = 0;
  while (P < Data.size()) {
    if (P + 4 > Data.size()) {
      Err = "truncated record header at offset " + std::to_string(P);
      return false;
    }
    InfoRecord R;
    R.Format = EIFormat(Data[P]);
    R.Attr = Data[P + 1];
    uint16_t V = llvm::support::endian::read16le(Data.data() + P + 2);
    switch (R.Format) {
    case EIFormat::NVal:
      break;
    case EIFormat::BVal:
      R.Value = V & 0xff;
      break;
    case EIFormat::HVal:
      R.Value = V;
      break;
    case EIFormat::SVal:
      if (P + 4 + V > Data.size()) {
        Err = "truncated SVAL payload at offset " + std::to_string(P);
        return false;
      }
      R.Payload.assign(Data.begin() + P + 4, Data.begin() + P + 4 + V);
      P += V;
      break;
    default:
      Err = "unknown record format " + std::to_string(Data[P]) +
            " at offset " + std::to_string(P);
      return false;
    }
    P += 4;
    Out.push_back(std::move(R));
  }
  return true;
}

void ptxas::object::encodeInfo(llvm::ArrayRef<InfoRecord> Records,
                               std::vector<uint8_t> &Out) {
  for (const InfoRecord &R : Records) {
    Out.push_back(uint8_t(R.Format));
    Out.push_back(R.Attr);
    uint16_t V = R.Format == EIFormat::SVal ? uint16_t(R.Payload.size())
                 : R.Format == EIFormat::NVal ? 0
                                              : R.Value;
    Out.push_back(V & 0xff);
    Out.push_back(V >> 8);
    if (R.Format == EIFormat::SVal)
      Out.insert(Out.end(), R.Payload.begin(), R.Payload.end());
  }
}
