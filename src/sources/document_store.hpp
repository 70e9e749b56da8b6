// DocumentStore answers plans that name "doc" or "policy" from a folder of Markdown and text files:
// the question (SourceQuery::text) becomes a safe FTS5 query, sections come back ranked by bm25 over
// a DocumentIndex cached on disk, optionally re-ranked by embedding similarity. Same files, same
// question, same items, byte for byte. Immutable after create(); threads may share one. Borrows the
// Clock and the Embedder: they outlive the store.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "sources/document_index.hpp"
#include "sources/fts_query.hpp"
#include "sources/retrieval_source.hpp"

namespace planfirst::core {
class AssetStore;
class Clock;
}  // namespace planfirst::core

namespace planfirst::embed {
class Embedder;
}

namespace planfirst::sources {

struct DocumentStoreOptions {
  std::string name = "doc";                   // what plans call it: "doc" or "policy"
  std::filesystem::path folder;               // e.g. "examples/project/docs"
  std::filesystem::path cache_dir;            // empty: the index is <folder>/.planfirst-index.sqlite
  std::size_t max_results = 8;                // at most this many sections per fetch (and SourceQuery::limit)
  const embed::Embedder* reranker = nullptr;  // null: bm25 order only
  std::size_t rerank_pool = 24;               // bm25 hits the reranker reorders
  double rerank_weight = 0.5;                 // share of embedding similarity in the re-ranked score
  // Sections are ranked first by how much of the question they cover (the question's words each
  // weighed by its rarity in the index, bm25's IDF, twice when the section's own heading holds it:
  // the section is about it), then by bm25; a section covering less than this
  // share of the best one's is left out, so the answer holds what answers and not a fixed count.
  double min_relative_coverage = 0.75;
};

class DocumentStore final : public RetrievalSource {
 public:
  // Opens (building or reusing) the index. Errors: kInvalidArgument for an empty name or folder,
  // a zero max_results or a weight outside [0, 1]; otherwise DocumentIndex::open's and
  // FtsQueryBuilder::load's.
  static core::Result<std::unique_ptr<DocumentStore>> create(DocumentStoreOptions options,
                                                             const core::AssetStore& assets,
                                                             const core::Clock& clock);
  // Where the index of `options` lives.
  static std::filesystem::path cache_file_for(const DocumentStoreOptions& options);

  std::string name() const override { return options_.name; }
  // Sections for SourceQuery::text, best first, each scored by its coverage; none when the question
  // has no searchable word.
  // kUnavailable when cancelled or when the reranker fails.
  core::Result<std::vector<EvidenceItem>> fetch(const SourceQuery& query,
                                                const core::CancellationToken* cancel) const override;

  const DocumentIndex& index() const { return *index_; }
  const FtsQueryBuilder& query_builder() const { return queries_; }

 private:
  struct ConstructionKey {};  // create() is the only way in

 public:
  DocumentStore(ConstructionKey, DocumentStoreOptions options, std::unique_ptr<DocumentIndex> index,
                FtsQueryBuilder queries, const core::Clock& clock);

 private:
  // How much of `question` each hit covers: the IDF of every question word the section holds, again
  // for each its heading holds.
  core::Result<std::vector<double>> coverage(std::string_view question,
                                             const std::vector<DocumentHit>& hits) const;
  core::Result<void> rerank(std::string_view question, std::vector<DocumentHit>& hits,
                            std::vector<double>& scores) const;

  DocumentStoreOptions options_;
  std::unique_ptr<DocumentIndex> index_;
  FtsQueryBuilder queries_;
  const core::Clock* clock_;  // borrowed; never null
};

}  // namespace planfirst::sources
