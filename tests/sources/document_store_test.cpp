// DocumentStore over the example project's docs/ and policies/ and over small folders of its own:
// sections by heading, bm25 ranking for realistic questions, the cache reused or rebuilt, FTS5
// syntax in questions, determinism to the byte, optional re-ranking by embeddings.
#include "sources/document_store.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/asset_store.hpp"
#include "core/cancellation.hpp"
#include "core/clock.hpp"
#include "embed/hashed_embedder.hpp"
#include "sources/document_sections.hpp"
#include "sources/field_counts.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::sources {
namespace {

namespace fs = std::filesystem;

const fs::path kProject = fs::path(PLANFIRST_SOURCE_DIR) / "examples" / "project";

struct DocumentStoreTest : ::testing::Test {
  core::AssetStore assets;
  core::ManualClock clock{std::chrono::sys_days{std::chrono::year{2026} / 11 / 24}};
  test_support::TempDir cache;

  std::unique_ptr<DocumentStore> store(std::string name, fs::path folder, fs::path cache_dir = {}) {
    DocumentStoreOptions options;
    options.name = std::move(name);
    options.folder = std::move(folder);
    options.cache_dir = cache_dir.empty() ? cache.path() : cache_dir;
    auto made = DocumentStore::create(std::move(options), assets, clock);
    if (!made) throw std::runtime_error(made.error().describe());
    return std::move(*made);
  }
  std::unique_ptr<DocumentStore> docs() { return store("doc", kProject / "docs"); }
  std::unique_ptr<DocumentStore> policies() { return store("policy", kProject / "policies"); }
};

SourceQuery ask(std::string text) {
  SourceQuery query;
  query.text = std::move(text);
  return query;
}

std::string to_json(const std::vector<EvidenceItem>& items) {
  nlohmann::json out = nlohmann::json::array();
  for (const EvidenceItem& item : items) {
    nlohmann::json fields = nlohmann::json::object();
    for (const auto& [key, value] : item.fields) fields[key] = value;
    out.push_back({{"source", item.source},
                   {"id", item.id},
                   {"title", item.title},
                   {"snippet", item.snippet},
                   {"fields", fields},
                   {"score", item.score.value_or(0)},
                   {"provenance",
                    {item.provenance.source, item.provenance.locator, item.provenance.query,
                     item.provenance.fetched_at}}});
  }
  return out.dump();
}

TEST(DocumentSections, CutsMarkdownAtHeadingsKeepingPathsAndLineRanges) {
  const std::string text =
      "# Release process\nIntro line.\n\n## Regular releases\n### Steps\n1. Deploy.\n\n## Hotfixes ##\nAny "
      "time.\n";

  const std::vector<DocumentSection> sections = split_into_sections("release-process.md", text);

  ASSERT_EQ(sections.size(), 3u);
  EXPECT_EQ(sections[0].heading_path, "Release process");
  EXPECT_EQ(sections[0].body, "Intro line.");
  EXPECT_EQ(sections[1].heading_path, "Release process > Regular releases > Steps");
  EXPECT_EQ(sections[1].first_line, 5u);
  EXPECT_EQ(sections[1].last_line, 7u);
  EXPECT_EQ(sections[2].heading, "Hotfixes");
  EXPECT_EQ(sections[2].heading_path, "Release process > Hotfixes");
  EXPECT_EQ(sections[2].first_line, 8u);
  EXPECT_EQ(sections[2].last_line, 9u);
}

TEST(DocumentSections, IgnoresHeadingsInsideCodeFencesAndKeepsAPreamble) {
  const std::string text = "Preamble text.\n# Top\n```\n# not a heading\n```\n#hashtag is text\n";

  const std::vector<DocumentSection> sections = split_into_sections("notes/a.md", text);

  ASSERT_EQ(sections.size(), 2u);
  EXPECT_EQ(sections[0].heading_path, "a.md");
  EXPECT_EQ(sections[0].last_line, 1u);
  EXPECT_EQ(sections[1].heading_path, "Top");
  EXPECT_NE(sections[1].body.find("# not a heading"), std::string::npos);
  EXPECT_NE(sections[1].body.find("#hashtag"), std::string::npos);
}

TEST(DocumentSections, TreatsAPlainTextFileAsOneSection) {
  const std::vector<DocumentSection> sections = split_into_sections("faq.txt", "# not markdown\nline two\n");

  ASSERT_EQ(sections.size(), 1u);
  EXPECT_EQ(sections[0].heading, "faq.txt");
  EXPECT_EQ(sections[0].last_line, 2u);
}

TEST(DocumentStore, BuildsFtsQueriesFromQuotedWordsWithoutStopWords) {
  const core::Result<FtsQueryBuilder> builder = FtsQueryBuilder::load(core::AssetStore());
  ASSERT_TRUE(builder.has_value()) << builder.error().describe();

  EXPECT_EQ(builder->build("How do we release a hotfix, and what does the release require?"),
            "\"release\" OR \"hotfix\" OR \"require\"");
  EXPECT_EQ(builder->build("what is the ..."), "");
  EXPECT_EQ(builder->build("body:x AND \"y\" NEAR(z*)"), "\"body\" OR \"x\" OR \"y\" OR \"near\" OR \"z\"");
}

struct RankingCase {
  const char* source;
  const char* question;
  const char* first_id;
};

TEST_F(DocumentStoreTest, RanksTheSectionThatAnswersARealisticQuestionFirst) {
  const auto doc = docs();
  const auto policy = policies();
  const RankingCase cases[] = {
      {"policy", "How do we release a hotfix on a Friday?", "policy:release-process.md#Hotfixes"},
      {"policy", "What is the resolution SLA for a P1 bug?", "policy:bug-triage.md#Priority SLAs"},
      {"policy", "How often are database passwords rotated?", "policy:access-and-secrets.md#Rotation"},
      {"policy", "What is the retention period for application logs?",
       "policy:data-retention.md#Retention periods"},
      {"policy", "Who approves a release of billing-engine?", "policy:release-process.md#Second reviewer"},
      {"policy", "When do we roll back a release?", "policy:release-process.md#Rollback"},
      {"doc", "How is the sprint completion rate defined?", "doc:data-definitions.md#Sprint completion rate"},
      {"doc", "What is the root cause of the duplicate charges incident?",
       "doc:post-incident-review-duplicate-charges.md#Root cause"},
      {"doc", "How does the connector deduplicate webhooks from the PSP?",
       "doc:payments-connector.md#Deduplication"},
      {"doc", "How long are session tokens valid?", "doc:auth-service.md#Session tokens"},
      {"policy", "How do I request a hotfix?", "policy:release-process.md#Hotfixes"},
      {"doc", "Why are customers being charged twice?", "doc:post-incident-review-duplicate-charges.md"},
  };
  for (const RankingCase& c : cases) {
    const DocumentStore& store = std::string_view(c.source) == "doc" ? *doc : *policy;

    auto items = store.fetch(ask(c.question), nullptr);

    ASSERT_TRUE(items.has_value()) << items.error().describe();
    ASSERT_FALSE(items->empty()) << c.question;
    EXPECT_EQ(items->front().id.rfind(c.first_id, 0), 0u) << c.question << "\n" << to_json(*items);
  }
}

TEST_F(DocumentStoreTest, SectionsCoveringLittleOfTheQuestionAreLeftOut) {
  // "request" is in many sections, "hotfix" in few: the rare word weighs more, twice in a heading.
  auto items = policies()->fetch(ask("How do I request a hotfix?"), nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  ASSERT_FALSE(items->empty());
  EXPECT_EQ(items->front().id, "policy:release-process.md#Hotfixes");
  for (const EvidenceItem& item : *items) {
    EXPECT_GE(*item.score, 0.75 * *items->front().score) << item.id;
    EXPECT_NE(item.snippet.find("hotfix"), std::string::npos) << item.id;  // requests alone do not answer
  }
}

TEST_F(DocumentStoreTest, ASectionsTextEndsAtABlockOrSentence) {
  auto items = policies()->fetch(ask("How do we release a hotfix on a Friday?"), nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  for (const EvidenceItem& item : *items) {
    const char last = item.snippet.back();
    EXPECT_TRUE(last == '.' || last == ':' || item.snippet.ends_with(" ...") || item.snippet.ends_with("|") ||
                item.snippet.ends_with("`"))
        << item.id << ": " << item.snippet;
  }
  EXPECT_NE(items->front().snippet.find("Every hotfix is mentioned in the incident's post-incident review."),
            std::string::npos);
}

TEST_F(DocumentStoreTest, DescribesEachSectionWithItsHeadingPathLinesAndQuery) {
  auto items = policies()->fetch(ask("How do we release a hotfix on a Friday?"), nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  const EvidenceItem& first = items->front();
  EXPECT_EQ(first.source, "policy");
  EXPECT_EQ(first.title, "Release process > Hotfixes");
  EXPECT_EQ(field_value(first, "file"), "release-process.md");
  EXPECT_EQ(field_value(first, "heading"), "Hotfixes");
  EXPECT_NE(first.snippet.find("A hotfix is a release"), std::string::npos);
  EXPECT_NE(field_value(first, "match").find("[hotfix]"), std::string::npos);
  EXPECT_EQ(first.provenance.query, "\"release\" OR \"hotfix\" OR \"friday\"");
  EXPECT_EQ(first.provenance.locator, "release-process.md:" + field_value(first, "lines") + "#Hotfixes");
  EXPECT_EQ(first.provenance.fetched_at, "2026-11-24T00:00:00Z");
  ASSERT_TRUE(first.score.has_value());
  for (std::size_t i = 1; i < items->size(); ++i) EXPECT_LE(*(*items)[i].score, *(*items)[i - 1].score);
}

TEST_F(DocumentStoreTest, ReturnsAtMostMaxResultsAndTheQueryLimit) {
  SourceQuery query = ask("release review bug incident secrets retention");
  query.limit = 3;

  auto items = policies()->fetch(query, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(items->size(), 3u);
}

TEST_F(DocumentStoreTest, ReusesTheIndexUntilAFileChanges) {
  test_support::TempDir folder;
  folder.write("guide.md", "# Guide\n## Deploys\nDeploys happen on Mondays.\n");
  folder.write("notes.txt", "Plain notes about nothing.\n");
  fs::create_directories(folder.path() / ".hidden");
  folder.write(".hidden/secret.md", "# Deploys\nnot indexed\n");

  EXPECT_TRUE(store("doc", folder.path())->index().rebuilt());
  const auto again = store("doc", folder.path());
  EXPECT_FALSE(again->index().rebuilt());
  EXPECT_EQ(again->index().file_count(), 2u);
  EXPECT_EQ(again->index().section_count(), 2u);

  folder.write("guide.md", "# Guide\n## Deploys\nDeploys happen on Tuesdays.\n");
  const auto changed = store("doc", folder.path());
  EXPECT_TRUE(changed->index().rebuilt());
  auto items = changed->fetch(ask("tuesdays"), nullptr);
  ASSERT_TRUE(items.has_value()) << items.error().describe();
  ASSERT_EQ(items->size(), 1u);
  EXPECT_EQ(items->front().id, "doc:guide.md#Deploys");

  fs::remove(folder.path() / "notes.txt");
  EXPECT_TRUE(store("doc", folder.path())->index().rebuilt());
  EXPECT_FALSE(store("doc", folder.path())->index().rebuilt());
}

TEST_F(DocumentStoreTest, KeepsTheIndexInTheFolderWhenNoCacheDirectoryIsGiven) {
  test_support::TempDir folder;
  folder.write("a.md", "# A\ntext\n");
  DocumentStoreOptions options;
  options.folder = folder.path();

  auto made = DocumentStore::create(options, assets, clock);

  ASSERT_TRUE(made.has_value()) << made.error().describe();
  EXPECT_TRUE(fs::exists(folder.path() / ".planfirst-index.sqlite"));
  EXPECT_EQ((*made)->index().file_count(), 1u);
}

TEST_F(DocumentStoreTest, TreatsFtsSyntaxInQuestionsAsPlainWords) {
  const auto policy = policies();
  const char* questions[] = {
      "\"release\" AND NOT (hotfix* OR body:secret) NEAR/2 ^start",
      "'; DROP TABLE sections; --",
      "{heading_path body}: rollback",
      "\"\"\"",
      "*",
      "release + - : ( ) ^ \" NEAR( OR AND NOT",
      "r\xc3\xa9lease \xff\xfe process",
  };
  for (const char* question : questions) {
    auto items = policy->fetch(ask(question), nullptr);

    EXPECT_TRUE(items.has_value()) << question << ": " << items.error().describe();
  }
  auto rollback = policy->fetch(ask("{heading_path body}: rollback"), nullptr);
  ASSERT_TRUE(rollback.has_value());
  ASSERT_FALSE(rollback->empty());
  EXPECT_EQ(rollback->front().id, "policy:release-process.md#Rollback");
}

TEST_F(DocumentStoreTest, FindsNothingForAQuestionOfStopWordsOnly) {
  auto items = docs()->fetch(ask("what is it and how was that?"), nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_TRUE(items->empty());
}

TEST_F(DocumentStoreTest, GivesTheSameBytesTwiceAndFromAFreshIndex) {
  test_support::TempDir other_cache;
  const SourceQuery query = ask("Which components depend on billing-engine and who owns them?");

  auto first = docs()->fetch(query, nullptr);
  auto second = docs()->fetch(query, nullptr);
  auto fresh = store("doc", kProject / "docs", other_cache.path())->fetch(query, nullptr);

  ASSERT_TRUE(first.has_value() && second.has_value() && fresh.has_value());
  EXPECT_EQ(to_json(*first), to_json(*second));
  EXPECT_EQ(to_json(*first), to_json(*fresh));
}

TEST_F(DocumentStoreTest, AnswersParallelFetchesLikeSequentialOnes) {
  const auto policy = policies();
  const SourceQuery query = ask("on-call paging and escalation");
  auto expected = policy->fetch(query, nullptr);
  ASSERT_TRUE(expected.has_value());
  std::vector<std::string> results(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] {
      auto items = policy->fetch(query, nullptr);
      results[i] = items ? to_json(*items) : items.error().describe();
    });
  }
  for (std::thread& t : threads) t.join();

  for (const std::string& result : results) EXPECT_EQ(result, to_json(*expected));
}

TEST_F(DocumentStoreTest, ReRanksWithAnEmbedderWhenOneIsGiven) {
  const embed::HashedEmbedder embedder;
  DocumentStoreOptions options;
  options.name = "policy";
  options.folder = kProject / "policies";
  options.cache_dir = cache.path();
  options.reranker = &embedder;
  auto made = DocumentStore::create(options, assets, clock);
  ASSERT_TRUE(made.has_value()) << made.error().describe();

  auto items = (*made)->fetch(ask("How do we release a hotfix on a Friday?"), nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  ASSERT_FALSE(items->empty());
  EXPECT_EQ(items->front().id, "policy:release-process.md#Hotfixes");
  EXPECT_LE(*items->front().score, 1.0);
}

TEST_F(DocumentStoreTest, StopsWhenCancelled) {
  core::CancellationToken cancel;
  cancel.cancel();

  auto items = docs()->fetch(ask("billing"), &cancel);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kUnavailable);
}

TEST_F(DocumentStoreTest, RefusesAMissingFolder) {
  DocumentStoreOptions options;
  options.folder = cache.path() / "missing";

  auto made = DocumentStore::create(options, assets, clock);

  ASSERT_FALSE(made.has_value());
  EXPECT_EQ(made.error().code, core::ErrorCode::kNotFound);
}

}  // namespace
}  // namespace planfirst::sources
