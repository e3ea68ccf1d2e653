// The host models of fixtures/tma/tma_model: which element a tile or im2col load brings to each
// place of shared memory under traversal strides, and which it fills as out of bounds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>

#include "fixtures/tma/tma_model.hpp"

using namespace cuconform;

namespace {

std::uint32_t code_at(const TensorDesc& t, std::uint64_t c, std::uint64_t w, std::uint64_t h, std::uint64_t d, std::uint64_t n) {
  const std::uint64_t idx[5] = {c, w, h, d, n};
  return element_code(t, idx);
}

// The 5D im2col tensor of tma_tensor.im2col: {C 16, W 10, H 6, D 4, N 2}.
TensorDesc im2col_tensor() { return TensorDesc::make(5, {16, 10, 6, 4, 2}, {1, 1, 1, 1, 1}); }

Im2colParams strided_params(std::uint16_t off) {
  Im2colParams p;
  for (int s = 0; s < 3; ++s) p.lower[s] = -1, p.upper[s] = -1, p.off[s] = off;
  return p;
}

}  // namespace

TEST_CASE("im2col model: unit traversal strides walk every base position", "[host][tma-model]") {
  TensorDesc t = im2col_tensor();
  Im2colParams p = strided_params(1);
  TmaCoords c;
  c.c[0] = 4, c.c[1] = 1, c.c[2] = -1, c.c[3] = -1, c.c[4] = 0;
  const auto v = expected_im2col(t, p, c);
  REQUIRE(v.size() == 16u * 8u);
  // W positions -1..8 (10 of them); base W 1 is index 2; pixel 0 reads W 1 + 1 = 2.
  CHECK(v[0] == code_at(t, 4, 2, 0, 0, 0));
  // pixel 7: W index 9 (position 8), read at W 9.
  CHECK(v[7 * 8] == code_at(t, 4, 9, 0, 0, 0));
  // pixel 8 wraps to the next H position: W -1 + 1 = 0, H 0 + 1 = 1.
  CHECK(v[8 * 8 + 3] == code_at(t, 7, 0, 1, 0, 0));
}

TEST_CASE("im2col model: traversal strides stride the base positions along W, H and D", "[host][tma-model]") {
  TensorDesc t = im2col_tensor();
  t.estr[1] = t.estr[2] = t.estr[3] = 2;
  Im2colParams p = strided_params(1);
  TmaCoords c;
  c.c[0] = 4, c.c[1] = 1, c.c[2] = -1, c.c[3] = -1, c.c[4] = 0;  // W base one stride past the corner
  const auto v = expected_im2col(t, p, c);
  REQUIRE(v.size() == 16u * 8u);
  // W positions -1, 1, 3, 5, 7; H -1, 1, 3; D -1, 1. Pixel k reads (position + 1).
  CHECK(v[0] == code_at(t, 4, 2, 0, 0, 0));          // W index 1
  CHECK(v[3 * 8] == code_at(t, 4, 8, 0, 0, 0));      // W index 4 (position 7)
  CHECK(v[4 * 8] == code_at(t, 4, 0, 2, 0, 0));      // wraps: W index 0, H index 1 (position 1)
  CHECK(v[9 * 8 + 7] == code_at(t, 11, 0, 4, 0, 0)); // W index 0, H index 2 (position 3)
  CHECK(v[14 * 8] == code_at(t, 4, 0, 0, 2, 0));     // D index 1 (position 1), H and W index 0
  CHECK(std::count(v.begin(), v.end(), kOobMarker) == 0);

  // 64 pixels: 30 base positions per image (5 x 3 x 2), so pixel 29 starts image 1 and pixels
  // 59..63 are past the batch.
  Im2colParams longer = p;
  longer.ppc = 64;
  const auto l = expected_im2col(t, longer, c);
  REQUIRE(l.size() == 64u * 8u);
  CHECK(l[29 * 8] == code_at(t, 4, 0, 0, 0, 1));
  CHECK(l[58 * 8] == code_at(t, 4, 8, 4, 2, 1));
  CHECK(std::count(l.begin(), l.end(), kOobMarker) == 5 * 8);

  // Mixed strides: W 3 (positions -1, 2, 5, 8), H 1, D 2. The W base must be on W's grid.
  TensorDesc m = im2col_tensor();
  m.estr[1] = 3, m.estr[2] = 1, m.estr[3] = 2;
  c.c[1] = 2;
  const auto w = expected_im2col(m, p, c);
  CHECK(w[0] == code_at(m, 4, 3, 0, 0, 0));      // W index 1: position 2, read at 3
  CHECK(w[2 * 8] == code_at(m, 4, 9, 0, 0, 0));  // W index 3: position 8
  CHECK(w[3 * 8] == code_at(m, 4, 0, 1, 0, 0));  // wraps after 4 W positions: H index 1 (position 0)
}

TEST_CASE("im2col model: padding read under traversal strides is out of bounds", "[host][tma-model]") {
  TensorDesc t = im2col_tensor();
  t.estr[1] = t.estr[2] = t.estr[3] = 2;
  Im2colParams p = strided_params(0);
  TmaCoords c;
  c.c[0] = 4, c.c[1] = -1, c.c[2] = -1, c.c[3] = -1, c.c[4] = 0;
  const auto v = expected_im2col(t, p, c);
  // D position -1 for the first 15 pixels (5 W x 3 H): all padding; pixel 15 is D 1, H -1: padding.
  CHECK(std::count(v.begin(), v.end(), kOobMarker) == 16 * 8);
  // Offsets 0 with D base on its second position: W -1 is padding, W 1 H 1 D 1 is data.
  c.c[3] = 1;
  const auto w = expected_im2col(t, p, c);
  CHECK(w[0] == kOobMarker);
  CHECK(w[6 * 8] == code_at(t, 4, 1, 1, 1, 0));  // W index 1, H index 1
}

TEST_CASE("im2col model: a filter base off the traversal-stride grid is refused", "[host][tma-model]") {
  TensorDesc t = im2col_tensor();
  t.estr[1] = 2;
  Im2colParams p = strided_params(1);
  TmaCoords c;
  c.c[0] = 4, c.c[1] = 0, c.c[2] = -1, c.c[3] = -1;  // W 0 is not -1 + 2k
  CHECK_THROWS_AS(expected_im2col(t, p, c), std::logic_error);
}

TEST_CASE("tile model: traversal strides decide which elements of a straddling box are filled", "[host][tma-model]") {
  TensorDesc t = TensorDesc::make(2, {37, 11}, {8, 4});
  TmaCoords c;
  c.c[0] = 4, c.c[1] = 8;  // the box's span in dimension 1 is rows 8..11: one past the tensor
  t.estr[1] = 2;           // rows 8 and 10: both inside
  auto v = expected_box(t, c);
  REQUIRE(v.size() == 16u);
  CHECK(std::count(v.begin(), v.end(), kOobMarker) == 0);
  CHECK(v[8] == code_at(t, 4, 10, 0, 0, 0));
  t.estr[1] = 3;  // rows 8 and 11: the second outside
  v = expected_box(t, c);
  REQUIRE(v.size() == 16u);
  CHECK(std::count(v.begin(), v.end(), kOobMarker) == 8);
  CHECK(v[0] == code_at(t, 4, 8, 0, 0, 0));
  CHECK(v[8] == kOobMarker);
  c.c[1] = -2;  // rows -2 (outside) and 1
  v = expected_box(t, c);
  CHECK(v[0] == kOobMarker);
  CHECK(v[8] == code_at(t, 4, 1, 0, 0, 0));
}
