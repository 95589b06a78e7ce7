//===- Layout.cpp - Variable sizes, alignment and initializer images ------===//
//
// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// PTX ISA 5.4: a variable occupies element size x vector width x extents
// bytes; it is aligned to .align or to its element (vector: whole vector)
// size; its initializer is stored little-endian, missing elements zero, and
// address-valued entries become relocation requests instead of bytes.
//
//===----------------------------------------------------------------------===//
#include "InitWalk.h"

#include "llvm/ADT/bit.h"

#include <cstring>

using namespace ptxas::ptx;

static llvm::SmallVector<uint64_t, 4> extentsOf(const Variable &V) {
  llvm::SmallVector<uint64_t, 4> E(V.Dims.begin(), V.Dims.end());
  if (V.VecWidth > 1)
    E.push_back(V.VecWidth);
  return E;
}

uint64_t Variable::elementCount() const {
  uint64_t N = 1;
  for (uint64_t D : Dims)
    N *= D;
  return N;
}

uint64_t Variable::sizeInBytes() const {
  return uint64_t(typeBytes(ElemType)) * VecWidth * elementCount();
}

unsigned Variable::alignment() const {
  if (ExplicitAlign)
    return ExplicitAlign;
  unsigned A = typeBytes(ElemType) * VecWidth;
  return A ? A : 1;
}

namespace {
/// ptxas's rules: the braces follow the declaration exactly (no C-style
/// brace elision, no braces around a scalar), arrays may be incomplete, and
/// a vector takes exactly its element count. The leaves are stored one
/// after another in their order, whatever the braces: an incomplete inner
/// list is not padded (ptxas 13.0: `.u8 t[3][2] = {{1}, {3}, {5}}` is
/// 1,3,5,0,0,0, and `{{{1,2},{3}},{{5}}}` in [2][2][2] is 1,2,3,5,0,..),
/// unlike C and the PTX ISA's "as in C"; the zeros come after the last
/// leaf. Complete lists (nvcc's) are the same either way.
struct Walker {
  llvm::ArrayRef<uint64_t> Ext;
  bool FirstInferred;
  unsigned VecLevel; // index of the vector extent in Ext, or ~0u
  llvm::function_ref<void(uint64_t, const InitValue &)> Leaf;
  llvm::function_ref<void(llvm::SMLoc, const llvm::Twine &)> Error;
  uint64_t Next = 0; ///< the slot of the next leaf

  bool walk(const InitValue &N, unsigned Level) {
    if (N.K != InitValue::Kind::List) {
      if (Level < Ext.size()) {
        Error(N.Loc, "initializer type mismatch: expected a brace list of " +
                         llvm::Twine(Ext[Level]) +
                         (Level == VecLevel ? " vector elements" : " elements"));
        return false;
      }
      Leaf(Next++, N);
      return true;
    }
    if (Level >= Ext.size()) {
      Error(N.Loc, "initializer type mismatch: braces where a scalar value "
                   "is expected");
      return false;
    }
    bool Unbounded = Level == 0 && FirstInferred;
    if (!Unbounded && N.Elems.size() > Ext[Level]) {
      Error(N.Elems[Ext[Level]]->Loc,
            "too many initializers: expected at most " + llvm::Twine(Ext[Level]));
      return false;
    }
    if (Level == VecLevel && N.Elems.size() != Ext[Level]) {
      Error(N.Loc, "initializer for a vector needs exactly " +
                       llvm::Twine(Ext[Level]) + " elements, found " +
                       llvm::Twine(N.Elems.size()));
      return false;
    }
    for (size_t I = 0; I != N.Elems.size(); ++I)
      if (!walk(*N.Elems[I], Level + 1))
        return false;
    return true;
  }
};
} // namespace

bool ptxas::ptx::walkInitializer(
    const Variable &V, const InitValue *Init,
    llvm::function_ref<void(uint64_t, const InitValue &)> Leaf,
    llvm::function_ref<void(llvm::SMLoc, const llvm::Twine &)> Error) {
  if (!Init)
    return true;
  auto Ext = extentsOf(V);
  unsigned VecLevel = V.VecWidth > 1 ? unsigned(Ext.size() - 1) : ~0u;
  Walker W{Ext, V.FirstDimInferred, VecLevel, Leaf, Error};
  return W.walk(*Init, 0);
}

uint64_t ptxas::ptx::inferredFirstExtent(const Variable &V,
                                         const InitValue *Init) {
  if (!Init || Init->K != InitValue::Kind::List)
    return 1;
  return Init->Elems.size();
}

/// Converts a literal to the bits of \p Ty (PTX ISA 4.5: float literals are
/// double precision unless written 0f; integers convert to floats by value).
static uint64_t leafBits(const InitValue &L, Type Ty) {
  unsigned Bits = typeBits(Ty);
  if (isFloat(Ty)) {
    double D;
    if (L.K == InitValue::Kind::Float)
      D = L.FloatIsSingle ? double(llvm::bit_cast<float>(uint32_t(L.Bits)))
                          : llvm::bit_cast<double>(L.Bits);
    else
      D = typeKind(Ty) == TypeKind::Float ? double(int64_t(L.Bits)) : 0;
    if (L.K == InitValue::Kind::Float && L.FloatIsSingle && Bits == 32)
      return uint32_t(L.Bits);
    if (Bits == 32)
      return llvm::bit_cast<uint32_t>(float(D));
    if (Bits == 64)
      return llvm::bit_cast<uint64_t>(D);
    return 0;
  }
  if (L.K == InitValue::Kind::Float) // float literal into an integer: raw bits
    return L.FloatIsSingle ? uint32_t(L.Bits) : L.Bits;
  return L.Bits;
}

DataImage Variable::dataImage() const {
  DataImage Img;
  Img.Bytes.assign(sizeInBytes(), 0);
  unsigned EB = typeBytes(ElemType);
  walkInitializer(
      *this, Init,
      [&](uint64_t Slot, const InitValue &L) {
        uint64_t Off = Slot * EB;
        if (Off + EB > Img.Bytes.size())
          return;
        if (L.K == InitValue::Kind::Symbol) {
          InitReloc R;
          R.Offset = Off;
          R.Size = EB;
          R.Symbol = L.Name;
          R.Addend = L.Addend;
          R.Generic = L.Generic;
          if (L.Mask) {
            R.HasMask = true;
            R.MaskByte = llvm::countr_zero(L.Mask) / 8;
          }
          Img.Relocs.push_back(R);
          return;
        }
        uint64_t B = leafBits(L, ElemType);
        for (unsigned I = 0; I != EB && I < 8; ++I)
          Img.Bytes[Off + I] = uint8_t(B >> (8 * I));
      },
      [](llvm::SMLoc, const llvm::Twine &) {});
  return Img;
}
