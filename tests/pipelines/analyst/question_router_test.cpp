// tests/pipelines/analyst/question_router_test.cpp: the rules, the fastText model and how the router
// combines them (seed 000 §5).
#include "pipelines/analyst/question_router.hpp"

#include <gtest/gtest.h>

#include "core/asset_store.hpp"
#include "core/file_text.hpp"
#include "pipelines/analyst/analyst_fixture.hpp"
#include "pipelines/analyst/labeled_questions.hpp"
#include "pipelines/analyst/router_model.hpp"
#include "pipelines/analyst/router_rules.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::analyst {
namespace {

RouterRules shipped_rules() {
  return *RouterRules::load(core::AssetStore());
}

TEST(LabeledQuestions, HoldsOutEveryFifthLineAndCoversEveryType) {
  const LabeledQuestions questions = *LabeledQuestions::load(core::AssetStore());

  std::map<RequestType, int> held_out;
  for (const LabeledQuestion& q : questions.held_out) ++held_out[q.type];

  EXPECT_GE(questions.train.size() + questions.held_out.size(), 400u);
  for (const LabeledQuestion& q : questions.held_out) EXPECT_EQ(q.line % kHeldOutEvery, 0u) << q.question;
  for (RequestType type : kAllRequestTypes) EXPECT_GE(held_out[type], 8) << to_string(type);
}

TEST(LabeledQuestions, NamesTheLineOfAnUnknownType) {
  core::Result<LabeledQuestions> parsed =
      LabeledQuestions::parse("CASUAL\thi\nSTATUS\thow many bugs\n", "q.tsv");

  ASSERT_FALSE(parsed.has_value());
  EXPECT_EQ(parsed.error().where, "q.tsv:2");
}

TEST(RouterRules, ScoresThePhrasesOfEachType) {
  const RouterRules rules = shipped_rules();

  const RuleScores scores = rules.score("What's the sprint completion rate?");

  EXPECT_TRUE(scores.decisive);
  EXPECT_EQ(scores.best, RequestType::kStatusMetric);
  EXPECT_NE(std::find(scores.matched.begin(), scores.matched.end(), "STATUS_METRIC:completion rate"),
            scores.matched.end());
}

TEST(RouterRules, GapAndPrefixWordsMatch) {
  core::Result<RouterRules> rules = RouterRules::parse(
      R"({"types": {"DATA_DEFINITION": ["what does ... mean"], "DESIGN_ARCH": ["architect*"]}})", "t");
  ASSERT_TRUE(rules.has_value()) << rules.error().describe();

  EXPECT_EQ(rules->score("what does the kind column mean").best, RequestType::kDataDefinition);
  EXPECT_EQ(rules->score("how should we architecture this").best, RequestType::kDesignArch);
  EXPECT_FALSE(rules->score("nothing here").decisive);
}

TEST(RouterRules, FastEligibilityCountsTheQuestionsWords) {
  core::Result<RouterRules> rules = RouterRules::parse(
      R"({"types": {"CASUAL": ["hi"]}, "fast_track": {"types": ["CASUAL"], "max_words": 3}})", "t");
  ASSERT_TRUE(rules.has_value()) << rules.error().describe();

  EXPECT_TRUE(rules->fast_eligible(RequestType::kCasual, question_words("hi there, you!")));
  EXPECT_FALSE(rules->fast_eligible(RequestType::kCasual, question_words("hi there, how are you?")));
  EXPECT_FALSE(rules->fast_eligible(RequestType::kStatusMetric, question_words("hi")));
}

TEST(RouterRules, RefusesAnUnknownType) {
  core::Result<RouterRules> rules = RouterRules::parse(R"({"types": {"STATUS": ["x"]}})", "rules.json");

  ASSERT_FALSE(rules.has_value());
  EXPECT_NE(rules.error().message.find("STATUS"), std::string::npos);
}

TEST(RouterModel, TrainsTheSameModelBytesTwice) {
  const LabeledQuestions questions = *LabeledQuestions::load(core::AssetStore());
  const test_support::TempDir first;
  const test_support::TempDir second;

  core::Result<RouterModel> a = RouterModel::train_or_load(questions, first.path());
  core::Result<RouterModel> b = RouterModel::train_or_load(questions, second.path());

  ASSERT_TRUE(a.has_value()) << a.error().describe();
  ASSERT_TRUE(b.has_value()) << b.error().describe();
  EXPECT_FALSE(a->loaded_from_cache());
  EXPECT_EQ(a->path().filename(), b->path().filename());
  EXPECT_EQ(core::read_file_text(a->path()).value_or("a unreadable"),
            core::read_file_text(b->path()).value_or("b unreadable"));
  for (const LabeledQuestion& q : questions.held_out) {
    const ModelPrediction pa = a->predict(q.question);
    const ModelPrediction pb = b->predict(q.question);
    EXPECT_EQ(pa.type, pb.type) << q.question;
    EXPECT_EQ(pa.probability, pb.probability) << q.question;
  }
}

TEST(RouterModel, LoadsTheCachedModelKeyedByTheTrainingFile) {
  const LabeledQuestions questions = *LabeledQuestions::load(core::AssetStore());
  const LabeledQuestions changed =
      *LabeledQuestions::parse(questions.text + "CASUAL\tgood afternoon\n", "q.tsv");
  const test_support::TempDir cache;

  const RouterModel trained = *RouterModel::train_or_load(questions, cache.path());
  const RouterModel cached = *RouterModel::train_or_load(questions, cache.path());
  const RouterModel retrained = *RouterModel::train_or_load(changed, cache.path());

  EXPECT_TRUE(cached.loaded_from_cache());
  EXPECT_EQ(cached.path(), trained.path());
  EXPECT_FALSE(retrained.loaded_from_cache());
  EXPECT_NE(retrained.key(), trained.key());
}

TEST(RouterModel, ClassifiesMostHeldOutQuestions) {
  const LabeledQuestions questions = *LabeledQuestions::load(core::AssetStore());
  const RouterModel model = *RouterModel::train_or_load(questions, testing::model_cache());

  std::size_t right = 0;
  for (const LabeledQuestion& q : questions.held_out)
    right += model.predict(q.question).type == q.type ? 1 : 0;

  EXPECT_GE(static_cast<double>(right) / static_cast<double>(questions.held_out.size()), 0.7);
}

TEST(QuestionRouter, AgreementOnAShortStatusQuestionIsFast) {
  const RouterRules rules = shipped_rules();
  const RouterModel model =
      *RouterModel::train_or_load(*LabeledQuestions::load(core::AssetStore()), testing::model_cache());
  const QuestionRouter router(rules, model);

  const RouteDecision decision = router.route("What's the sprint completion rate?");

  EXPECT_EQ(decision.request_type, RequestType::kStatusMetric);
  EXPECT_EQ(decision.track, Track::kFast);
  EXPECT_EQ(decision.reason.rfind("router:agree STATUS_METRIC FAST", 0), 0u) << decision.reason;
}

TEST(QuestionRouter, HighStakesTypesAreQuality) {
  const RouterRules rules = shipped_rules();
  const RouterModel model =
      *RouterModel::train_or_load(*LabeledQuestions::load(core::AssetStore()), testing::model_cache());
  const QuestionRouter router(rules, model);

  const RouteDecision decision = router.route("Design the new authentication module");

  EXPECT_EQ(decision.request_type, RequestType::kDesignArch);
  EXPECT_EQ(decision.track, Track::kQuality);
}

TEST(QuestionRouter, RoutesTheSameWayTwice) {
  const RouterRules rules = shipped_rules();
  const RouterModel model =
      *RouterModel::train_or_load(*LabeledQuestions::load(core::AssetStore()), testing::model_cache());
  const QuestionRouter router(rules, model);

  for (const char* question :
       {"why is the gateway slow", "who owns billing-engine", "hi", "list overdue issues"}) {
    const RouteDecision a = router.route(question);
    const RouteDecision b = router.route(question);
    EXPECT_EQ(a.reason, b.reason) << question;
  }
}

}  // namespace
}  // namespace planfirst::analyst
