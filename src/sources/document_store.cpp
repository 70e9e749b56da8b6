#include "sources/document_store.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/cancellation.hpp"
#include "core/clock.hpp"
#include "core/content_hash.hpp"
#include "core/timestamp.hpp"
#include "embed/embedder.hpp"
#include "sources/snippet.hpp"

namespace planfirst::sources {
namespace {

namespace fs = std::filesystem;

std::string line_range(const DocumentSection& section) {
  return std::to_string(section.first_line) + "-" + std::to_string(section.last_line);
}

constexpr std::size_t kPassageBytes = 2000;  // a section's text in its evidence item: whole blocks

// bm25's inverse document frequency of a term held by `holding` of `sections` sections.
double idf(std::size_t holding, std::size_t sections) {
  const double n = static_cast<double>(sections), df = static_cast<double>(holding);
  return std::log(1.0 + (n - df + 0.5) / (df + 0.5));
}

}  // namespace

core::Result<std::vector<double>> DocumentStore::coverage(std::string_view question,
                                                          const std::vector<DocumentHit>& hits) const {
  std::vector<double> covered(hits.size(), 0.0);
  for (const std::string& term : queries_.terms(question)) {
    core::Result<std::vector<std::int64_t>> holding = index_->section_ids(FtsQueryBuilder::term_query(term));
    if (!holding) return holding.error();
    core::Result<std::vector<std::int64_t>> headed =
        index_->section_ids("heading : " + FtsQueryBuilder::term_query(term));
    if (!headed) return headed.error();
    const double weight = idf(holding->size(), std::max(index_->section_count(), holding->size()));
    for (std::size_t i = 0; i < hits.size(); ++i) {
      if (std::binary_search(holding->begin(), holding->end(), hits[i].id)) covered[i] += weight;
      if (std::binary_search(headed->begin(), headed->end(), hits[i].id)) covered[i] += weight;
    }
  }
  return covered;
}

fs::path DocumentStore::cache_file_for(const DocumentStoreOptions& options) {
  if (options.cache_dir.empty()) return options.folder / ".planfirst-index.sqlite";
  std::error_code error;
  const fs::path absolute = fs::weakly_canonical(fs::absolute(options.folder, error), error);
  return options.cache_dir /
         (options.name + "-" + core::to_hex(core::fnv1a64(absolute.generic_string())) + ".sqlite");
}

core::Result<std::unique_ptr<DocumentStore>> DocumentStore::create(DocumentStoreOptions options,
                                                                   const core::AssetStore& assets,
                                                                   const core::Clock& clock) {
  if (options.name.empty())
    return core::invalid_argument("a document source needs a name", "DocumentStoreOptions::name");
  if (options.folder.empty())
    return core::invalid_argument("a document source needs a folder", "DocumentStoreOptions::folder");
  if (options.max_results == 0)
    return core::invalid_argument("must be positive", "DocumentStoreOptions::max_results");
  if (!(options.rerank_weight >= 0.0 && options.rerank_weight <= 1.0)) {
    return core::invalid_argument("must be within [0, 1]", "DocumentStoreOptions::rerank_weight");
  }
  core::Result<FtsQueryBuilder> queries = FtsQueryBuilder::load(assets);
  if (!queries) return queries.error();
  core::Result<std::unique_ptr<DocumentIndex>> index =
      DocumentIndex::open(options.folder, cache_file_for(options));
  if (!index) return index.error();
  return std::make_unique<DocumentStore>(ConstructionKey{}, std::move(options), std::move(*index),
                                         std::move(*queries), clock);
}

DocumentStore::DocumentStore(ConstructionKey, DocumentStoreOptions options,
                             std::unique_ptr<DocumentIndex> index, FtsQueryBuilder queries,
                             const core::Clock& clock)
    : options_(std::move(options)), index_(std::move(index)), queries_(std::move(queries)), clock_(&clock) {}

core::Result<void> DocumentStore::rerank(std::string_view question, std::vector<DocumentHit>& hits,
                                         std::vector<double>& scores) const {
  std::vector<std::string> texts{std::string(question)};
  for (const DocumentHit& hit : hits) texts.push_back(hit.section.heading_path + "\n" + hit.section.body);
  core::Result<embed::EmbeddingMatrix> vectors = options_.reranker->embed(texts);
  if (!vectors) {
    core::Error error = std::move(vectors).error();
    error.message = options_.name + ": re-ranking failed: " + error.message;
    return error;
  }
  const double best = std::max(1e-12, scores.front());  // coverage, best first
  std::vector<std::size_t> order(hits.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<double> combined(hits.size());
  for (std::size_t i = 0; i < hits.size(); ++i) {
    const double lexical = scores[i] / best;
    const double semantic = embed::cosine_similarity(vectors->row(0), vectors->row(i + 1));
    combined[i] = (1.0 - options_.rerank_weight) * lexical + options_.rerank_weight * semantic;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return combined[a] > combined[b]; });
  std::vector<DocumentHit> sorted;
  scores.clear();
  for (const std::size_t i : order) {
    sorted.push_back(std::move(hits[i]));
    scores.push_back(combined[i]);
  }
  hits = std::move(sorted);
  return {};
}

core::Result<std::vector<EvidenceItem>> DocumentStore::fetch(const SourceQuery& query,
                                                             const core::CancellationToken* cancel) const {
  if (cancel != nullptr && cancel->cancelled()) return core::unavailable(options_.name + ": cancelled");
  const std::string match = queries_.build(query.text);
  const std::size_t wanted = std::min(options_.max_results, query.limit);
  core::Result<std::vector<DocumentHit>> found =
      index_->search(match, std::max(wanted, options_.rerank_pool));
  if (!found) return found.error();
  std::vector<DocumentHit>& hits = *found;
  core::Result<std::vector<double>> covered = coverage(query.text, hits);
  if (!covered) return covered.error();
  std::vector<std::size_t> order(hits.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return (*covered)[a] > (*covered)[b]; });
  const double enough = order.empty() ? 0.0 : options_.min_relative_coverage * (*covered)[order.front()];
  std::vector<DocumentHit> relevant;
  std::vector<double> scores;
  for (const std::size_t i : order) {
    if ((*covered)[i] < enough) break;
    relevant.push_back(std::move(hits[i]));
    scores.push_back((*covered)[i]);
  }
  hits = std::move(relevant);
  if (options_.reranker != nullptr && !hits.empty()) {
    if (core::Result<void> reranked = rerank(query.text, hits, scores); !reranked) return reranked.error();
  }
  const std::string fetched_at = core::format_utc_timestamp(clock_->now());
  std::vector<EvidenceItem> items;
  for (std::size_t i = 0; i < hits.size() && items.size() < wanted; ++i) {
    const DocumentHit& hit = hits[i];
    const DocumentSection& section = hit.section;
    EvidenceItem item;
    item.source = options_.name;
    item.id = options_.name + ":" + section.file + "#" + hit.anchor;
    item.title = section.heading_path;
    item.snippet = passage_of(section.body, kPassageBytes);
    item.fields = {{"file", section.file},
                   {"heading", section.heading},
                   {"heading_path", section.heading_path},
                   {"lines", line_range(section)},
                   {"match", hit.excerpt}};
    item.score = scores[i];
    item.provenance = {options_.name, section.file + ":" + line_range(section) + "#" + hit.anchor, match,
                       fetched_at};
    items.push_back(std::move(item));
  }
  return items;
}

}  // namespace planfirst::sources
