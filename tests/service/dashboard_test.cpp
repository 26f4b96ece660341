// docs/grafana/cuzk.json against the exporter (service/prometheus.hpp): every cuzk_ metric a
// panel or variable queries is in the /metrics text of an engine that has seen one job of each
// state, one GPU and one worker, with each label the query selects or groups by. A dashboard
// that names a metric the daemon does not export (a typo, a rename) fails here, not on a wall.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "service/prometheus.hpp"

namespace cuzk::service {
namespace {

const std::filesystem::path kDashboard =
    std::filesystem::path(CUZK_TEST_DATA_DIR) / ".." / ".." / "docs" / "grafana" / "cuzk.json";

// name -> label keys over every series line of the exposition text.
std::map<std::string, std::set<std::string>> series_of(const std::string& text) {
  std::map<std::string, std::set<std::string>> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.empty() || line[0] == '#') continue;
    const size_t brace = line.find('{'), space = line.find(' ');
    const std::string name = line.substr(0, std::min(brace, space));
    auto& keys = out[name];
    if (brace != std::string::npos && brace < space) {
      const size_t close = line.find('}', brace);
      std::string labels = line.substr(brace + 1, close - brace - 1);
      size_t k = 0;
      while (k < labels.size()) {
        const size_t eq = labels.find('=', k);
        keys.insert(labels.substr(k, eq - k));
        const size_t q = labels.find('"', labels.find('"', eq) + 1);  // closing quote
        k = q + 2;                                                    // past `",`
      }
    }
  }
  return out;
}

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Use {
  std::string metric;
  std::set<std::string> labels;  // selected ({key=...}) or grouped (by (key)) in the query
};

// The cuzk_ metrics of a PromQL expression, each with the label keys of its selector and those of
// the `by (...)` / `ignoring(...)` clauses of the expression.
std::vector<Use> uses_of(const std::string& expr) {
  std::set<std::string> grouped;
  for (const std::string clause : {"by (", "by(", "ignoring(", "ignoring ("}) {
    for (size_t at = expr.find(clause); at != std::string::npos; at = expr.find(clause, at + 1)) {
      const size_t open = at + clause.size(), close = expr.find(')', open);
      std::string list = expr.substr(open, close - open);
      size_t k = 0;
      while (k <= list.size()) {
        size_t comma = list.find(',', k);
        if (comma == std::string::npos) comma = list.size();
        std::string key = list.substr(k, comma - k);
        std::erase_if(key, [](char c) { return c == ' '; });
        if (!key.empty()) grouped.insert(key);
        k = comma + 1;
      }
    }
  }
  std::vector<Use> out;
  for (size_t at = expr.find("cuzk_"); at != std::string::npos; at = expr.find("cuzk_", at + 1)) {
    if (at > 0 && name_char(expr[at - 1])) continue;
    size_t end = at;
    while (end < expr.size() && name_char(expr[end])) ++end;
    Use u{expr.substr(at, end - at), grouped};
    if (end < expr.size() && expr[end] == '{') {
      const size_t close = expr.find('}', end);
      const std::string sel = expr.substr(end + 1, close - end - 1);
      size_t k = 0;
      while (k < sel.size()) {
        const size_t op = sel.find_first_of("=!", k);
        std::string key = sel.substr(k, op - k);
        std::erase_if(key, [](char c) { return c == ' '; });
        u.labels.insert(key);
        const size_t q = sel.find('"', sel.find('"', op) + 1);
        k = q + 2;
      }
    }
    out.push_back(std::move(u));
    at = end;
  }
  return out;
}

// Every expr and variable query of the dashboard.
std::vector<std::string> queries_of(simdjson::dom::element dash) {
  std::vector<std::string> out;
  for (simdjson::dom::element panel : dash["panels"].get_array()) {
    simdjson::dom::array targets;
    if (panel["targets"].get(targets) != simdjson::SUCCESS) continue;
    for (simdjson::dom::element t : targets) out.emplace_back(std::string_view(t["expr"].get_string()));
  }
  for (simdjson::dom::element v : dash["templating"]["list"].get_array()) {
    std::string_view type = v["type"].get_string();
    if (type == "query") out.emplace_back(std::string_view(v["query"].get_string()));
  }
  return out;
}

TEST(Dashboard, EveryQueriedMetricAndLabelIsExported) {
  engine::MetricsSnapshot m;
  engine::KindMetrics k;
  k.completed = 1;
  k.failed = 1;
  k.cancelled = 1;
  k.stages[0].observe(0.5);
  m.kinds[engine::ProofKind::porep_seal_commit] = k;
  m.pending[engine::ProofKind::porep_seal_commit] = 1;
  m.in_progress[engine::ProofKind::porep_seal_commit] = 1;
  m.pending_by_priority[engine::ProofKind::porep_seal_commit] = {0, 0, 1, 0, 0};
  m.workers.push_back({"gpu 0", 1.5});
  m.gpus.push_back({0, 1, true});
  ProcessReadings p;
  p.resident_bytes = 1;
  p.gpus.push_back(groth16::GpuInfo{});
  const std::map<std::string, std::set<std::string>> exported = series_of(prometheus_text(m, p));
  ASSERT_TRUE(exported.contains("cuzk_uptime_seconds"));

  simdjson::dom::parser parser;
  simdjson::dom::element dash;
  ASSERT_EQ(parser.load(kDashboard.string()).get(dash), simdjson::SUCCESS) << kDashboard;
  const std::vector<std::string> queries = queries_of(dash);
  ASSERT_GE(queries.size(), 10u);
  std::set<std::string> used;
  // Labels Prometheus adds at scrape time, and the histogram's bucket bound.
  const std::set<std::string> scrape_labels = {"instance", "job", "le"};
  for (const std::string& q : queries) {
    for (const Use& u : uses_of(q)) {
      used.insert(u.metric);
      const auto it = exported.find(u.metric);
      ASSERT_NE(it, exported.end()) << "the dashboard queries " << u.metric << ", which /metrics lacks: " << q;
      for (const std::string& label : u.labels) {
        if (scrape_labels.contains(label)) continue;
        // A grouping label belongs to one of the expression's metrics, not necessarily this one.
        bool somewhere = it->second.contains(label);
        for (const Use& other : uses_of(q)) somewhere = somewhere || exported.at(other.metric).contains(label);
        EXPECT_TRUE(somewhere) << u.metric << " has no label " << label << ": " << q;
      }
    }
  }
  // The panels the operator guide promises (docs/curio.md, Monitoring).
  for (const char* want : {"cuzk_queue_pending_by_priority", "cuzk_proofs_total", "cuzk_stage_seconds_bucket",
                           "cuzk_worker_busy_seconds_total", "cuzk_gpu_failures_total", "cuzk_gpu_resting",
                           "cuzk_memory_budget_bytes", "cuzk_memory_reserved_bytes"})
    EXPECT_TRUE(used.contains(want)) << want;
}

// The label parsers themselves, on a line and a query whose answers are known.
TEST(Dashboard, ParsersReadLabels) {
  const auto s = series_of("# HELP x y\ncuzk_a{kind=\"p,q\",state=\"ok\"} 1\ncuzk_b 2\n");
  EXPECT_EQ(s.at("cuzk_a"), (std::set<std::string>{"kind", "state"}));
  EXPECT_TRUE(s.at("cuzk_b").empty());
  const auto u = uses_of("sum by (le, stage) (rate(cuzk_c_bucket{instance=~\"$i\",kind!=\"x\"}[5m])) / up");
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].metric, "cuzk_c_bucket");
  EXPECT_EQ(u[0].labels, (std::set<std::string>{"instance", "kind", "le", "stage"}));
}

}  // namespace
}  // namespace cuzk::service
