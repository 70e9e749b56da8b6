// PostgresCheckpointer beyond the conformance suite: two processes sharing one database (one
// pauses a thread at an interrupt and exits, another resumes it), schema version refusal, and an
// unreachable server.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "graph/checkpointer_test_stores.hpp"
#include "graph/child/child_process.hpp"
#include "graph/state_assembler.hpp"

namespace planfirst::graph {
namespace {

using core::Json;

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

TEST(PostgresCheckpointer, AnotherProcessResumesAThreadPausedAtAnInterrupt) {
  testing::PostgresStore store;
  std::string failure;
  std::unique_ptr<Checkpointer> reader = store.open(&failure);
  ASSERT_NE(reader, nullptr) << failure;
  const test_support::TempDir dir;
  const std::string child = PLANFIRST_CHECKPOINTER_CHILD;
  std::string paused_out, resumed_out, stale_out, err;

  const int paused = testing::run_to_end({child, "interrupt", store.uri(), "review"}, dir.path() / "p.out",
                                         &paused_out, &err);
  ASSERT_EQ(paused, 0) << err;
  const std::string paused_head = first_line(paused_out);
  const int resumed = testing::run_to_end({child, "resume", store.uri(), "review", paused_head},
                                          dir.path() / "r.out", &resumed_out, &err);
  const int stale = testing::run_to_end({child, "resume", store.uri(), "review", paused_head},
                                        dir.path() / "s.out", &stale_out, &err);

  EXPECT_EQ(resumed, 0);
  EXPECT_EQ(stale, 4) << "a stale expected head must be a conflict";
  const std::string resumed_head = first_line(resumed_out);
  EXPECT_NE(err.find(paused_head), std::string::npos) << err;
  EXPECT_NE(err.find(resumed_head), std::string::npos) << err;
  auto head = reader->head("review");
  ASSERT_TRUE(head.has_value() && head->has_value());
  EXPECT_EQ((*head)->checkpoint_id, resumed_head);
  EXPECT_EQ((*head)->parent_id, paused_head);
  auto paused_record = reader->get("review", paused_head);
  ASSERT_TRUE(paused_record.has_value());
  EXPECT_EQ(paused_record->status, CheckpointStatus::kInterrupted);
  auto writes = reader->writes_for_state("review", resumed_head);
  ASSERT_TRUE(writes.has_value());
  EXPECT_EQ(*assemble_state(*writes), Json::parse(R"({"step":3,"requires_user_input":false,
                            "reasoning":["step 0","step 1","step 2","step 3","user said yes"]})"));
  EXPECT_EQ(reader->history("review")->size(), 5u);
}

TEST(PostgresCheckpointer, RefusesADatabaseWithANewerSchemaVersion) {
  testing::PostgresStore store;
  std::string failure;
  ASSERT_NE(store.open(&failure), nullptr) << failure;
  ASSERT_EQ(testing::run_sql(store.uri(), "UPDATE planfirst_schema SET version = 3"), "");

  auto reopened = PostgresCheckpointer::open(store.uri());

  ASSERT_FALSE(reopened.has_value());
  EXPECT_EQ(reopened.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(reopened.error().message.find("schema version 3"), std::string::npos) << reopened.error().message;
}

TEST(PostgresCheckpointer, RefusesToReadARecordOfANewerFormat) {
  testing::PostgresStore store;
  std::string failure;
  std::unique_ptr<Checkpointer> checkpointer = store.open(&failure);
  ASSERT_NE(checkpointer, nullptr) << failure;
  CheckpointRecord record;
  record.thread_id = "t";
  record.checkpoint_id = "t-0";
  ASSERT_TRUE(checkpointer->append(record, "").has_value());
  ASSERT_EQ(testing::run_sql(store.uri(), "UPDATE planfirst_checkpoints SET format_version = 3"), "");

  auto history = checkpointer->history("t");

  ASSERT_FALSE(history.has_value());
  EXPECT_EQ(history.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(history.error().message.find("format version 3"), std::string::npos);
}

TEST(PostgresCheckpointer, AnUnreachableServerIsUnavailableAndHidesThePassword) {
  const std::string uri = "postgresql://someone:secret@127.0.0.1:1/nothing?connect_timeout=2";

  auto opened = PostgresCheckpointer::open(uri);

  ASSERT_FALSE(opened.has_value());
  EXPECT_EQ(opened.error().code, core::ErrorCode::kUnavailable);
  EXPECT_EQ(opened.error().describe().find("secret"), std::string::npos) << opened.error().describe();
}

}  // namespace
}  // namespace planfirst::graph
