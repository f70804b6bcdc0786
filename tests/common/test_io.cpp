// Tests of sssp/io.hpp: the four text formats, format detection, and their
// error reporting.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "sssp/errors.hpp"
#include "sssp/io.hpp"
#include "sssp_test.hpp"

namespace sssp {
namespace {

using namespace io_test;

// --- DIMACS -----------------------------------------------------------------

TEST(ReadDimacs, ParsesVerticesArcsAndWeightsExactly) {
  const EdgeList g = parse_graph(kDimacs, "small.gr");
  EXPECT_EQ(g.num_vertices, 4u);
  EXPECT_EQ(arcs_of(g), kDimacsArcs);  // the self-loop 4->4 and the parallel 1->2 are kept
  EXPECT_EQ(g.name, "small.gr");
}

TEST(ReadDimacs, AcceptsCrlfBlankLinesAndTabs) {
  const EdgeList g = parse_graph("c x\r\n\r\n  \r\n\t c indented\r\np\tsp 3 2\r\n\ta\t1  2 5 \r\na 3 2 1", "t");
  EXPECT_EQ(g.num_vertices, 3u);
  EXPECT_EQ(arcs_of(g), (std::vector<Arc>{{0, 1, 5}, {2, 1, 1}}));
}

TEST(ReadDimacs, VertexWithoutArcsAndEmptyArcSet) {
  const EdgeList g = parse_graph("p sp 5 0\n", "t");
  EXPECT_EQ(g.num_vertices, 5u);
  EXPECT_EQ(g.num_edges(), 0u);
}

TEST(ReadDimacs, LongLinesAcrossReadBuffers) {
  // Comment lines just under the 1 MiB limit force the reader to carry
  // partial lines over many buffer refills.
  TempDir dir;
  std::string text = "p sp 3 6\n";
  std::vector<Arc> expected;
  for (vertex_t i = 0; i < 6; ++i) {
    text += "c " + std::string(1000000, 'x') + "\n";
    text +=
        "a " + std::to_string(i % 3 + 1) + " " + std::to_string((i + 1) % 3 + 1) + " " + std::to_string(100 + i) + "\n";
    expected.emplace_back(i % 3, (i + 1) % 3, 100 + i);
  }
  write_file(dir.file("long.gr"), text);
  EXPECT_EQ(arcs_of(read_graph(dir.file("long.gr"))), expected);
  write_gz(dir.file("long.gr.gz"), text);
  ReadOptions any_ratio;  // the x's inflate about 1000 times, as no graph does
  any_ratio.max_inflation = 0;
  EXPECT_EQ(arcs_of(read_graph(dir.file("long.gr.gz"), any_ratio)), expected);
}

TEST(ReadDimacs, WriteDimacsRoundTrips) {
  TempDir dir;
  const CsrGraph original = to_csr(parse_graph(kDimacs, "small.gr"));
  write_dimacs(original, dir.file("out.gr"));
  const EdgeList back = read_graph(dir.file("out.gr"));
  EXPECT_EQ(back.name, "out.gr");
  const CsrGraph csr = to_csr(back);
  EXPECT_EQ(csr.offsets, original.offsets);
  EXPECT_EQ(csr.targets, original.targets);
  EXPECT_EQ(csr.weights, original.weights);
  EXPECT_EQ(read_bytes(dir.file("out.gr")).substr(0, 20), "c small.gr\np sp 4 5\n");
}

// --- PACE -------------------------------------------------------------------

TEST(ReadPace, EachEdgeBecomesTwoArcsWithOneWeight) {
  const auto policy = WeightPolicy::uniform(1, 1000000, 5);
  const EdgeList g = parse_graph("c road\np tw 3 3\n1 2\n3 3\n1 2\n", "t", with_weights(policy));
  EXPECT_EQ(g.num_vertices, 3u);
  const weight_t w0 = policy.weight_of(0);
  const weight_t w1 = policy.weight_of(1);
  const weight_t w2 = policy.weight_of(2);
  // A self-loop edge still gives two arcs, and the repeated edge is kept.
  EXPECT_EQ(arcs_of(g), (std::vector<Arc>{{0, 1, w0}, {1, 0, w0}, {2, 2, w1}, {2, 2, w1}, {0, 1, w2}, {1, 0, w2}}));
}

TEST(ReadPace, UnitWeightsByDefault) {
  const EdgeList g = parse_graph("p tw 2 1\n1 2\n", "t");
  EXPECT_EQ(arcs_of(g), (std::vector<Arc>{{0, 1, 1}, {1, 0, 1}}));
}

TEST(ReadPace, WeightsAreDeterministicPerSeed) {
  std::string text = "p tw 50 49\n";
  for (int i = 1; i < 50; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  const auto read = [&](std::uint64_t seed) {
    return parse_graph(text, "t", with_weights(WeightPolicy::uniform(1, 1000000, seed))).weight;
  };
  EXPECT_EQ(read(7), read(7));
  EXPECT_NE(read(7), read(8));
}

// --- SNAP -------------------------------------------------------------------

TEST(ReadSnap, RemapsIdsInOrderOfFirstAppearance) {
  const EdgeList g = parse_graph(
      "# Directed graph\n# FromNodeId\tToNodeId\n100\t7\n7 18446744073709551615\n\n100 100\n100 "
      "7\n",
      "t");
  EXPECT_EQ(g.num_vertices, 3u);  // 100 -> 0, 7 -> 1, 2^64-1 -> 2
  EXPECT_EQ(arcs_of(g), (std::vector<Arc>{{0, 1, 1}, {1, 2, 1}, {0, 0, 1}, {0, 1, 1}}));
}

TEST(ReadSnap, WeightsFollowTheEdgeLineIndex) {
  const auto policy = WeightPolicy::uniform(1, 1000000, 11);
  const EdgeList g = parse_graph("# c\n5 6\n# c\n6 5\n", "t", with_weights(policy));
  EXPECT_EQ(arcs_of(g), (std::vector<Arc>{{0, 1, policy.weight_of(0)}, {1, 0, policy.weight_of(1)}}));
  const EdgeList other = parse_graph("5 6\n6 5\n", "t", with_weights(WeightPolicy::uniform(1, 1000000, 12)));
  EXPECT_NE(other.weight, g.weight);
}

TEST(ReadSnap, UndirectedOptionAddsReverseArcWithSameWeight) {
  ReadOptions options = with_weights(WeightPolicy::uniform(1, 1000000, 3));
  options.snap_undirected = true;
  const EdgeList g = parse_graph("10 20\n20 30\n", "t", options);
  const weight_t w0 = options.weights.weight_of(0);
  const weight_t w1 = options.weights.weight_of(1);
  EXPECT_EQ(g.num_vertices, 3u);
  EXPECT_EQ(arcs_of(g), (std::vector<Arc>{{0, 1, w0}, {1, 0, w0}, {1, 2, w1}, {2, 1, w1}}));
}

// --- Matrix Market ----------------------------------------------------------

TEST(ReadMatrixMarket, IntegerGeneral) {
  const EdgeList g = parse_graph(
      "%%MatrixMarket matrix coordinate integer general\n% comment\n3 3 4\n1 2 5\n3 1 0\n2 2 7\n1 "
      "2 5\n",
      "t");
  EXPECT_EQ(g.num_vertices, 3u);
  EXPECT_EQ(arcs_of(g), (std::vector<Arc>{{0, 1, 5}, {2, 0, 0}, {1, 1, 7}, {0, 1, 5}}));
}

TEST(ReadMatrixMarket, SymmetricPatternMirrorsOffDiagonalAndKeepsDiagonalOnce) {
  const auto policy = WeightPolicy::uniform(1, 1000000, 9);
  const EdgeList g = parse_graph("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 3\n3 2\n", "t",
                                 with_weights(policy));
  const weight_t w0 = policy.weight_of(0);
  const weight_t w1 = policy.weight_of(1);
  const weight_t w2 = policy.weight_of(2);
  EXPECT_EQ(arcs_of(g), (std::vector<Arc>{{1, 0, w0}, {0, 1, w0}, {2, 2, w1}, {2, 1, w2}, {1, 2, w2}}));
}

TEST(ReadMatrixMarket, RealValuesRoundToNearest) {
  const EdgeList g = parse_graph(
      "%%MatrixMarket matrix coordinate real general\n2 2 5\n1 2 1.4\n1 2 2.5\n1 2 0\n1 2 1e3\n"
      "1 2 4294967295.4\n",
      "t");
  EXPECT_EQ(g.weight, (std::vector<weight_t>{1, 3, 0, 1000, 4294967295u}));
}

TEST(ReadMatrixMarket, BannerIsCaseInsensitive) {
  const EdgeList g = parse_graph("%%MatrixMarket MATRIX Coordinate Integer General\n2 2 1\n2 1 4\n", "t");
  EXPECT_EQ(arcs_of(g), (std::vector<Arc>{{1, 0, 4}}));
}

// --- Detection --------------------------------------------------------------

TEST(ReadAutoDetect, PicksTheFormatFromTheFirstMeaningfulLine) {
  const std::vector<std::pair<std::string, GraphFormat>> cases = {
      {kDimacs, GraphFormat::kDimacs},
      {"c x\n\np tw 3 1\n1 3\n", GraphFormat::kPace},
      {"0 5\n5 9\n", GraphFormat::kSnap},
      {"# c\n0 5\n", GraphFormat::kSnap},
      {"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", GraphFormat::kMatrixMarket},
  };
  for (const auto& [text, format] : cases) {
    EXPECT_EQ(arcs_of(parse_graph(text, "t")), arcs_of(parse_graph(text, "t", with_format(format)))) << text;
  }
  // Read as SNAP, a DIMACS file would fail: detection must not have chosen SNAP.
  EXPECT_EQ(parse_graph("c x\np tw 3 1\n1 3\n", "t").num_vertices, 3u);
}

TEST(ReadAutoDetect, UnknownProblemLineIsRejected) {
  EXPECT_TRUE(rejects("p max 3 1\n", {"t:1:", "expected 'p sp' or 'p tw'"}));
}

TEST(ReadAutoDetect, FileThatLostItsHeaderIsNotReadAsAnotherFormat) {
  // Read as SNAP, a PACE file without its `p tw` line would be a valid graph
  // with half of its arcs.
  const std::string headerless = "1 2\n2 3\n3 1\n";
  EXPECT_TRUE(rejects(headerless, {"road.gr:1:", "missing 'p sp' or 'p tw' header"}, {}, "road.gr"));
  EXPECT_TRUE(rejects("# a comment\n" + headerless, {"road.gr:1:", "missing 'p sp'"}, {}, "road.gr"));
  EXPECT_TRUE(rejects(headerless, {"road.gr.gz:1:", "a .gr file is DIMACS or PACE"}, {}, "road.gr.gz"));
  EXPECT_TRUE(rejects("c road\n\n" + headerless, {"t:3:", "expected a 'p sp' or 'p tw' header", "starting with 'c'"}));
  EXPECT_TRUE(rejects("3 3 1\n1 2\n", {"m.mtx:1:", "missing '%%MatrixMarket' banner"}, {}, "m.mtx"));
  // Under another name, or with the format given, the same text is an edge list.
  EXPECT_EQ(parse_graph(headerless, "edges.txt").num_edges(), 3u);
  EXPECT_EQ(parse_graph(headerless, "road.gr", with_format(GraphFormat::kSnap)).num_edges(), 3u);
}

TEST(ReadAutoDetect, UppercaseHeaderIsNamed) {
  EXPECT_TRUE(rejects("P sp 3 1\na 1 2 3\n", {"t:1:", "'P' must be lowercase"}));
  EXPECT_TRUE(rejects("c x\nP tw 3 1\n1 2\n", {"t:2:", "'P' must be lowercase"}));
  EXPECT_TRUE(rejects("P sp 3 1\na 1 2 3\n", {"t:1:", "'P' must be lowercase"}, with_format(GraphFormat::kDimacs)));
}

TEST(ReadAutoDetect, MatrixMarketBannerMustBeTheFirstLine) {
  EXPECT_TRUE(rejects("\n%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n",
                      {"t:2:", "banner on the first line"}));
}

TEST(ParseFormat, KnowsExactlyTheDocumentedNames) {
  EXPECT_EQ(parse_format("auto"), GraphFormat::kAuto);
  EXPECT_EQ(parse_format("dimacs"), GraphFormat::kDimacs);
  EXPECT_EQ(parse_format("pace"), GraphFormat::kPace);
  EXPECT_EQ(parse_format("snap"), GraphFormat::kSnap);
  EXPECT_EQ(parse_format("mtx"), GraphFormat::kMatrixMarket);
  EXPECT_TRUE(throws_input_error([] { (void)parse_format("gr"); }, {"'gr'", "auto, dimacs, pace, snap, mtx"}));
}

// --- Text encodings ---------------------------------------------------------

TEST(ReadText, Utf8ByteOrderMarkIsDropped) {
  const std::string bom = "\xEF\xBB\xBF";
  EXPECT_EQ(arcs_of(parse_graph(bom + kDimacs, "t")), kDimacsArcs);
  EXPECT_EQ(arcs_of(parse_graph(bom + "p sp 2 1\na 1 2 3\n", "t")), (std::vector<Arc>{{0, 1, 3}}));
  EXPECT_EQ(parse_graph(bom + "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", "t").num_edges(), 1u);
  EXPECT_EQ(parse_graph(bom + "0 5\n", "t").num_edges(), 1u);
  // Anywhere else it is not text of any format.
  EXPECT_TRUE(rejects("p sp 2 1\n" + bom + "a 1 2 3\n", {"t:2:", "unknown line type"}));
}

TEST(ReadText, Utf16IsRejected) {
  EXPECT_TRUE(rejects(std::string{'\xFF', '\xFE', 'p', '\0', '\n', '\0'}, {"t:1:", "UTF-16"}));
}

TEST(ReadText, CrOnlyLineEndingsAreNamed) {
  // Read as one line, such a file used to look like one comment: "empty file".
  EXPECT_TRUE(rejects("c x\rp sp 2 1\ra 1 2 3\r", {"t:1:", "CR-only line endings are not supported"}));
  std::string big = "p sp 2 150000\r";
  for (int i = 0; i < 150000; ++i) big += "a 1 2 3\r";  // longer than a line may be
  EXPECT_TRUE(rejects(big, {"t:1:", "CR-only line endings are not supported"}));
}

// --- Bad input: one reason each ---------------------------------------------

TEST(ReadErrors, MissingFile) {
  EXPECT_TRUE(
      throws_input_error([] { (void)read_graph("/nonexistent/dir/x.gr"); }, {"/nonexistent/dir/x.gr", "No such file"}));
}

TEST(ReadErrors, EmptyFile) {
  TempDir dir;
  write_file(dir.file("empty.gr"), "");
  EXPECT_TRUE(throws_input_error([&] { (void)read_graph(dir.file("empty.gr")); }, {"empty.gr", "empty"}));
  EXPECT_TRUE(rejects("\n  \r\nc only a comment\n", {"empty"}));
}

TEST(ReadErrors, NoHeader) {
  EXPECT_TRUE(rejects("c only comments\n", {"no 'p sp' header"}, with_format(GraphFormat::kDimacs)));
  EXPECT_TRUE(rejects("1 2\n", {"t:1:", "before the 'p tw' header"}, with_format(GraphFormat::kPace)));
}

TEST(ReadErrors, HeaderAfterArcs) {
  EXPECT_TRUE(rejects("c x\na 1 2 3\np sp 2 1\n", {"t:2:", "before the 'p sp' header"}));
}

TEST(ReadErrors, TwoHeaders) {
  EXPECT_TRUE(rejects("p sp 2 1\np sp 2 1\na 1 2 3\n", {"t:2:", "second header", "line 1"}));
}

TEST(ReadErrors, FewerArcsThanDeclared) {
  EXPECT_TRUE(rejects("p sp 3 3\na 1 2 1\na 2 3 1\n", {"declares 3 arcs but the file has 2"}));
  EXPECT_TRUE(rejects("p tw 3 2\n1 2\n", {"declares 2 edges but the file has 1"}));
}

TEST(ReadErrors, MoreArcsThanDeclared) {
  EXPECT_TRUE(rejects("p sp 3 1\na 1 2 1\na 2 3 1\n", {"t:3:", "declares 1 arcs but the file has more"}));
}

TEST(ReadErrors, IdZeroInOneBasedFormat) {
  EXPECT_TRUE(rejects("p sp 3 1\na 0 2 1\n", {"t:2:", "vertex id 0", "1..3"}));
  EXPECT_TRUE(rejects("p tw 3 1\n2 0\n", {"t:2:", "vertex id 0"}));
}

TEST(ReadErrors, IdAboveVertexCount) {
  EXPECT_TRUE(rejects("p sp 3 1\na 1 4 1\n", {"t:2:", "vertex id 4", "1..3"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n4 1\n", {"t:3:", "vertex id 4"}));
}

TEST(ReadErrors, NegativeNumbers) {
  EXPECT_TRUE(rejects("p sp 3 1\na 1 2 -5\n", {"t:2:", "negative weight '-5'"}));
  EXPECT_TRUE(rejects("p sp 3 1\na -1 2 5\n", {"t:2:", "negative vertex id"}));
  EXPECT_TRUE(rejects("1 2\n-3 4\n", {"t:2:", "negative vertex id '-3'"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -0.5\n", {"t:3:", "negative weight"}));
}

TEST(ReadErrors, NonNumericFields) {
  EXPECT_TRUE(rejects("p sp 3 1\na 1 2 x7\n", {"t:2:", "weight 'x7' is not a non-negative integer"}));
  EXPECT_TRUE(rejects("p sp 3 1\na 1 2 7x\n", {"t:2:", "weight '7x'"}));
  EXPECT_TRUE(rejects("p sp 3 1\na 1 2 1.5\n", {"t:2:", "weight '1.5'"}));
  EXPECT_TRUE(rejects("p sp three 1\n", {"t:1:", "vertex count 'three'"}));
  EXPECT_TRUE(rejects("x 1 2\n", {"t:1:", "vertex id 'x'"}));
  EXPECT_TRUE(
      rejects("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 abc\n", {"t:3:", "not a real number"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 nan\n", {"t:3:", "not finite"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 inf\n", {"t:3:", "not finite"}));
}

TEST(ReadErrors, WeightAbove32Bits) {
  EXPECT_TRUE(rejects("p sp 3 1\na 1 2 4294967296\n", {"t:2:", "exceeds the maximum 4294967295"}));
  EXPECT_TRUE(rejects("p sp 3 1\na 1 2 18446744073709551616\n", {"t:2:", "too large"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 4294967296\n",
                      {"t:3:", "exceeds the maximum"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 4294967295.5\n",
                      {"t:3:", "exceeds the maximum"}));
}

TEST(ReadErrors, TrailingGarbage) {
  EXPECT_TRUE(rejects("p sp 3 1\na 1 2 3 4\n", {"t:2:", "trailing text '4'"}));
  EXPECT_TRUE(rejects("p sp 3 1 extra\n", {"t:1:", "trailing text 'extra'"}));
  EXPECT_TRUE(rejects("1 2 3\n", {"t:1:", "trailing text '3'"}));
  EXPECT_TRUE(rejects("p tw 3 1\n1 2 x\n", {"t:2:", "trailing text 'x'"}));
}

TEST(ReadErrors, MissingField) {
  EXPECT_TRUE(rejects("p sp 3 1\na 1 2\n", {"t:2:", "missing weight"}));
  EXPECT_TRUE(rejects("p sp 3\n", {"t:1:", "missing edge count"}));
  EXPECT_TRUE(rejects("5\n", {"t:1:", "missing target vertex id"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2\n", {"t:3:", "missing value"}));
}

TEST(ReadErrors, BinaryGarbageIsQuotedReadably) {
  std::string garbage(5000, '\xff');
  garbage[0] = '\x01';
  try {
    (void)parse_graph(garbage, "t");
    FAIL() << "garbage was accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("t:1: vertex id '\\x01\\xff"), std::string::npos) << message;
    EXPECT_LT(message.size(), 300u) << "the field must be shortened in the message";
  }
}

TEST(ReadErrors, UnknownLineType) { EXPECT_TRUE(rejects("p sp 3 1\ne 1 2 3\n", {"t:2:", "unknown line type 'e'"})); }

TEST(ReadErrors, AbsurdVertexCountRejectedBeforeAllocating) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(rejects("p sp 4000000000 1\na 1 2 3\n", {"t:1:", "4000000000 vertices", "max_vertices"}));
  EXPECT_TRUE(rejects("p sp 18446744073709551615 1\n", {"t:1:", "max_vertices"}));
  EXPECT_TRUE(rejects("p sp 18446744073709551616 1\n", {"t:1:", "too large"}));
  EXPECT_TRUE(
      rejects("%%MatrixMarket matrix coordinate pattern general\n4000000000 4000000000 1\n", {"t:2:", "max_vertices"}));
  // Rejecting at the header (line 1) means nothing was sized from it; it is also fast.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
  ReadOptions small;
  small.max_vertices = 10;
  EXPECT_TRUE(rejects("p sp 11 0\n", {"t:1:", "11 vertices", "limit of 10"}, small));
  EXPECT_EQ(parse_graph("p sp 10 0\n", "t", small).num_vertices, 10u);
  EXPECT_TRUE(rejects("1 2\n3 4\n5 6\n7 8\n9 10\n11 12\n", {"t:6:", "more than 10 distinct"}, small));
}

TEST(ReadErrors, AbsurdArcCountRejectedBeforeAllocating) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(rejects("p sp 2 4000000000\na 1 2 3\n", {"t:1:", "4000000000 arcs", "max_edges"}));
  EXPECT_TRUE(rejects("p tw 2 1500000000\n", {"t:1:", "3000000000 arcs", "max_edges"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate pattern general\n2 2 4000000000\n",
                      {"t:2:", "4000000000 entries", "max_edges"}));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
  ReadOptions small;
  small.max_edges = 3;
  small.snap_undirected = true;
  EXPECT_TRUE(rejects("1 2\n2 3\n", {"t:2:", "more than 3 arcs"}, small));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 1\n",
                      {"t:4:", "more than 3 arcs"}, small));
}

TEST(ReadErrors, OverlongLine) {
  EXPECT_TRUE(rejects("p sp 2 0\nc " + std::string(1 << 21, 'x') + "\n", {"t:2:", "longer than"}));
}

TEST(ReadErrors, MatrixMarketNotSquare) {
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate pattern general\n3 4 1\n1 2\n", {"t:2:", "3 x 4", "square"}));
}

TEST(ReadErrors, MatrixMarketUnsupportedKinds) {
  EXPECT_TRUE(rejects("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", {"t:1:", "'array'"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate complex general\n", {"t:1:", "'complex'"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate real hermitian\n", {"t:1:", "'hermitian'"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate integer skew-symmetric\n", {"t:1:", "'skew-symmetric'"}));
  EXPECT_TRUE(rejects("%%MatrixMarket vector coordinate integer general\n", {"t:1:", "'vector'"}));
  EXPECT_TRUE(rejects("3 3 1\n1 2\n", {"t:1:", "banner"}, with_format(GraphFormat::kMatrixMarket)));
}

TEST(ReadErrors, MatrixMarketEntryCountAndTriangle) {
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n",
                      {"declares 3 entries but the file has 2"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n",
                      {"t:4:", "declares 1 entries but the file has more"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n1 2\n",
                      {"t:3:", "above the diagonal", "lower triangle"}));
  EXPECT_TRUE(rejects("%%MatrixMarket matrix coordinate pattern general\n% no size line\n", {"no size line"}));
}

TEST(ReadErrors, SnapWithoutEdges) { EXPECT_TRUE(rejects("# header only\n", {"no edges"})); }

// --- The real data (skipped unless SSSP_DATA_DIR is set) --------------------

void expect_counts(const std::string& path, vertex_t vertices, edge_t arcs) {
  const EdgeList g = read_graph(path);
  EXPECT_EQ(g.num_vertices, vertices) << path;
  EXPECT_EQ(g.num_edges(), arcs) << path;
  EXPECT_EQ(g.name, fs::path(path).filename().string());
}

TEST(ReadRealData, Rome99) {
  SSSP_REQUIRE_DATASET(path, "rome99.gr.gz");
  expect_counts(path, 3353, 8870);
}

TEST(ReadRealData, UsaRoadNyPace) {
  SSSP_REQUIRE_DATASET(path, "USA-road-NY.pace.gr.gz");
  expect_counts(path, 264346, 730100);
}

TEST(ReadRealData, UsRoads48MatrixMarket) {
  SSSP_REQUIRE_DATASET(path, "usroads-48.mtx.gz");
  expect_counts(path, 126146, 323900);
}

TEST(ReadRealData, WikiVoteSnap) {
  SSSP_REQUIRE_DATASET(path, "wiki-Vote.txt.gz");
  expect_counts(path, 7115, 103689);
}

}  // namespace
}  // namespace sssp
