// The tma_throughput family's pure parts (issue 36): the fractions and limits a rate is stated
// against, the stream plans, and the report's "Throughput against the physical limit" table read
// from a synthetic results file (no GPU here).
#include <catch2/catch.hpp>
#include <filesystem>

#include "fixtures/common/physical_limit.hpp"
#include "fixtures/tma_perf/tma_perf_plan.hpp"
#include "reporters/html_report.hpp"
#include "reporters/throughput_table.hpp"
#include "suites/host/test_reporters_support.hpp"

using namespace cuconform;
using namespace cuconform::testing;

TEST_CASE("physical limit: fractions, datasheet figures by name, the theoretical figure", "[host][tma_throughput]") {
  REQUIRE(fraction_of(2.55e12, 3.0e12));
  CHECK(*fraction_of(2.55e12, 3.0e12) == Approx(0.85));
  CHECK_FALSE(fraction_of(1e12, 0));   // no limit: no fraction, never a division by zero
  CHECK_FALSE(fraction_of(1e12, -1));
  CHECK_FALSE(fraction_of(-1, 3e12));

  auto h100 = datasheet_hbm("NVIDIA H100 80GB HBM3");
  REQUIRE(h100);
  CHECK(h100->bytes_per_s == Approx(3.35e12));
  auto h200 = datasheet_hbm("NVIDIA H200");
  REQUIRE(h200);
  CHECK(h200->bytes_per_s == Approx(4.8e12));
  CHECK_FALSE(datasheet_hbm("NVIDIA H100 PCIe"));  // another memory: the table says nothing of it
  CHECK_FALSE(datasheet_hbm("NVIDIA A100-SXM4-80GB"));

  // H100 SXM: 2619 MHz x 5120 bits x 2 / 8 = 3.352 TB/s, the datasheet's 3.35.
  CHECK(theoretical_hbm_bytes_per_s(2619000, 5120) == Approx(3.35232e12));
  CHECK(theoretical_hbm_bytes_per_s(0, 5120) == 0);
  CHECK(theoretical_hbm_bytes_per_s(2619000, 0) == 0);
}

TEST_CASE("physical limit: a stated rate carries the fractions, the datasheet or its absence, the clocks", "[host][tma_throughput]") {
  PhysicalLimits lim;
  lim.gpu_name = "NVIDIA H100 80GB HBM3";
  lim.d2d_bytes_per_s = 3.0e12;
  lim.d2d_bytes = 512.0 * (1 << 20);
  lim.datasheet = datasheet_hbm(lim.gpu_name);
  lim.theoretical_bytes_per_s = 3.35232e12;
  Clocks before, after;
  before.readable = after.readable = true;
  before.sm_mhz = 1980, after.sm_mhz = 1755, before.mem_mhz = after.mem_mhz = 2619;
  Observation o;
  state_rate(o, 1e9, 2.7e12, lim, before, after);
  auto m = [&](const std::string& k) {
    for (auto& [key, v] : o.measurements)
      if (key == k) return v;
    FAIL("no measurement " << k);
    return 0.0;
  };
  CHECK(m("rate_gbps") == Approx(2700));
  CHECK(m("frac_d2d") == Approx(0.9));
  CHECK(m("frac_datasheet") == Approx(2.7 / 3.35));
  CHECK(m("sm_mhz_before") == 1980);
  CHECK(m("sm_mhz_after") == 1755);
  CHECK(m("mem_mhz_after") == 2619);
  CHECK(rate_text(2.7e12, lim).find("0.9 of the d2d copy") != std::string::npos);

  lim.datasheet.reset();
  lim.gpu_name = "NVIDIA A100-SXM4-80GB";
  after.readable = false;
  after.why_not = "NVML unavailable";
  Observation none;
  state_rate(none, 1e9, 1.5e12, lim, before, after);
  for (auto& [key, v] : none.measurements) CHECK(key.find("datasheet") == std::string::npos);
  CHECK(none.fact_value("datasheet") == "none: the table has no HBM figure for NVIDIA A100-SXM4-80GB");
  CHECK(none.fact_value("rate_clocks") == "unreadable: NVML unavailable");
  CHECK(rate_text(1.5e12, lim).find("no datasheet figure") != std::string::npos);
}

TEST_CASE("tma_throughput plans: bulk streams fit shared memory, tensor boxes tile the tensor", "[host][tma_throughput]") {
  for (unsigned chunk : {1024u, 4096u, 16384u, 32768u, 65536u}) {
    const BulkPlan p = bulk_plan(chunk);
    INFO("chunk " << chunk);
    CHECK(p.stages >= 2);
    CHECK(p.stages <= kStreamMaxStages);
    CHECK(p.ctas_per_sm >= 1);
    CHECK(p.smem_bytes >= p.stages * chunk + 1024);
    CHECK(p.smem_bytes * p.ctas_per_sm <= kStreamSmemPerSm + 4 * 1024);
    CHECK(p.smem_bytes <= 227 * 1024);  // an H100 CTA's opt-in maximum
  }
  CHECK(bulk_plan(1024).ctas_per_sm == 4);
  CHECK(bulk_plan(65536).ctas_per_sm == 1);

  const std::size_t bytes = 128ull << 20;
  for (int rank : {1, 2, 3, 5})
    for (unsigned span : {0u, 32u, 64u, 128u})
      for (unsigned box : {4096u, 16384u}) {
        const TensorPlan t = tensor_plan(rank, span, box, bytes);
        INFO("rank " << rank << " span " << span << " box " << box);
        REQUIRE(t.error.empty());
        std::uint64_t elements = 1, boxes = 1, box_elems = 1;
        for (int i = 0; i < 5; ++i) {
          CHECK(t.box[i] >= 1);
          CHECK(t.box[i] <= 256);
          CHECK(t.dims[i] == static_cast<std::uint64_t>(t.box[i]) * t.n[i]);
          elements *= t.dims[i];
          boxes *= t.n[i];
          box_elems *= t.box[i];
        }
        CHECK(elements * 4 == bytes);  // the boxes tile the whole tensor
        CHECK(boxes == t.boxes);
        CHECK(box_elems * 4 == t.box_bytes);
        if (span) CHECK(t.box[0] * 4 == span);  // the innermost extent is the swizzle span
        CHECK(t.stage_bytes % 1024 == 0);
        CHECK(t.stages >= 2);
        CHECK(t.smem_bytes * t.ctas_per_sm <= kStreamSmemPerSm + 4 * 1024);
      }
  CHECK(tensor_plan(2, 128, 16384, bytes).box_bytes == 16384);
  CHECK(tensor_plan(2, 32, 16384, bytes).box_bytes == 8192);  // 8 x 256: the outer extent is capped
  CHECK(tensor_plan(5, 128, 4096, bytes).box[4] == 2);
  CHECK(tensor_plan(1, 0, 4096, bytes).box_bytes == 1024);  // rank 1: at most 256 elements
  CHECK_FALSE(tensor_plan(6, 0, 4096, bytes).error.empty());
  CHECK_FALSE(tensor_plan(2, 16, 4096, bytes).error.empty());
  CHECK_FALSE(tensor_plan(2, 0, 4000, bytes).error.empty());
}

TEST_CASE("report: the throughput table lists every case stated against the d2d copy", "[host][tma_throughput][reporters]") {
  auto s = synthetic_run("NVIDIA H100 80GB HBM3");
  s->add("tma_throughput", "tma_throughput.bulk.copy_reaches_d2d", "chunk65536.copy", Verdict::fail,
         {{"bytes", 536870912}, {"rate_gbps", 2310.5}, {"frac_d2d", 0.7702}, {"frac_datasheet", 0.6897}, {"sm_mhz_after", 1980},
          {"mem_mhz_after", 2619}});
  s->add("tma_throughput", "tma_throughput.tensor.rate", "rank2.none.box_bytes4096.load", Verdict::recorded,
         {{"rate_gbps", 2950}, {"frac_d2d", 0.9833}});  // no datasheet figure, no clocks
  s->add("ldgsts", "ldgsts.perf.align_128", "size16.offset16", Verdict::pass, {{"aligned_gbps", 1500}, {"ratio", 1.02}});
  std::string dir = temp_dir("throughput");
  write_text(dir + "/r.json", results_json(s->run));
  Fleet f = load_results(dir + "/r.json");
  const auto rows = throughput_rows(f, 0);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].case_name == "tma_throughput.bulk.copy_reaches_d2d.chunk65536.copy");
  CHECK(rows[0].frac_d2d == Approx(0.7702));
  REQUIRE(rows[0].frac_datasheet);
  CHECK_FALSE(rows[1].frac_datasheet);
  CHECK_FALSE(rows[1].sm_mhz);

  const std::string md = throughput_markdown(rows);
  CHECK(md.find("### Throughput against the physical limit (2)") != std::string::npos);
  CHECK(md.find("| `tma_throughput.bulk.copy_reaches_d2d.chunk65536.copy` | fail | 2310.5 GB/s | 0.770 | 0.690 | 1980 / 2619 |") !=
        std::string::npos);
  CHECK(md.find("| `tma_throughput.tensor.rate.rank2.none.box_bytes4096.load` | recorded | 2950.0 GB/s | 0.983 | no figure | ? / ? |") !=
        std::string::npos);
  CHECK(md.find("ldgsts") == std::string::npos);
  CHECK(throughput_markdown({}).empty());

  // Both reports carry it.
  CHECK(markdown_report(f, nullptr, dir + "/r.json", "").find("Throughput against the physical limit (2)") != std::string::npos);
  const std::string page = html_report(f, nullptr, dir + "/r.json");
  CHECK(page.find("Throughput against the physical limit (2)") != std::string::npos);
  CHECK(page.find("href=\"#throughput\"") != std::string::npos);  // in the contents bar
  const std::string html = throughput_html(rows);
  CHECK(html.find("<section id=\"throughput\">") != std::string::npos);
  CHECK(html.find("0.770") != std::string::npos);
  std::filesystem::remove_all(dir);
}
