#include "core/wordnet_synonyms.hpp"

#include <gmock/gmock.h>

#include <algorithm>
#include <thread>
#include <vector>

namespace planfirst::core {
namespace {

using ::testing::Contains;
using ::testing::IsEmpty;
using ::testing::Not;

class WordNetSynonymsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::shared_ptr<const WordNetSynonyms>> opened = WordNetSynonyms::open();
    ASSERT_TRUE(opened.has_value()) << opened.error().describe();
    lexicon_ = *opened;
  }
  std::shared_ptr<const WordNetSynonyms> lexicon_;
};

TEST_F(WordNetSynonymsTest, NounsShareTheirSynsets) {
  EXPECT_THAT(lexicon_->of("area"), Contains("region"));
  EXPECT_THAT(lexicon_->of("gender"), Contains("sex"));
  EXPECT_THAT(lexicon_->of("earnings"), Contains("salary"));
}

TEST_F(WordNetSynonymsTest, AnInflectedWordReadsAsItsBaseForm) {
  EXPECT_THAT(lexicon_->of("regions"), Contains("region"));
  EXPECT_THAT(lexicon_->of("regions"), Contains("area"));
}

TEST_F(WordNetSynonymsTest, OnlyPlainLowerCaseWordsWithoutTheWordItself) {
  const std::vector<std::string> synonyms = lexicon_->of("nation");
  EXPECT_THAT(synonyms, Contains("country"));
  EXPECT_THAT(synonyms, Not(Contains("nation")));
  EXPECT_THAT(synonyms, Not(Contains("body_politic")));  // multi-word lemma
  EXPECT_THAT(synonyms, Not(Contains("Nation")));        // proper name
  EXPECT_TRUE(std::is_sorted(synonyms.begin(), synonyms.end()));
}

TEST_F(WordNetSynonymsTest, UnknownOrMalformedWordsHaveNone) {
  EXPECT_THAT(lexicon_->of("qzxv"), IsEmpty());
  EXPECT_THAT(lexicon_->of(""), IsEmpty());
  EXPECT_THAT(lexicon_->of("Area"), IsEmpty());  // callers pass lower-case tokens
  EXPECT_THAT(lexicon_->of("area%s"), IsEmpty());
}

TEST_F(WordNetSynonymsTest, KnowsWordsWithoutSynonymsButNotAbbreviations) {
  EXPECT_TRUE(lexicon_->knows("budget"));
  EXPECT_TRUE(lexicon_->knows("lat"));
  EXPECT_FALSE(lexicon_->knows("cust"));
  EXPECT_FALSE(lexicon_->knows("amt"));
  EXPECT_FALSE(lexicon_->knows(""));
  EXPECT_FALSE(lexicon_->knows("Lat")) << "callers pass lower-case tokens";
}

TEST_F(WordNetSynonymsTest, ConcurrentLookupsAgreeWithASerialOne) {
  const std::vector<std::string> expected = lexicon_->of("price");
  std::vector<std::vector<std::string>> seen(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([&, i] {
      for (const char* word : {"cost", "amount", "quantity"}) (void)lexicon_->of(word);
      seen[i] = lexicon_->of("price");
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const std::vector<std::string>& result : seen) EXPECT_EQ(result, expected);
}

}  // namespace
}  // namespace planfirst::core
