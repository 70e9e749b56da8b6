#include "pipelines/analyst/labeled_questions.hpp"

namespace planfirst::analyst {

core::Result<LabeledQuestions> LabeledQuestions::parse(std::string_view text, std::string_view origin) {
  LabeledQuestions set;
  set.text = std::string(text);
  std::size_t line_number = 0;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string where = std::string(origin) + ":" + std::to_string(line_number);
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos || tab + 1 >= line.size()) {
      return core::invalid_argument("expected REQUEST_TYPE<TAB>question", where);
    }
    std::optional<RequestType> type = parse_request_type(line.substr(0, tab));
    if (!type)
      return core::invalid_argument("unknown request type \"" + std::string(line.substr(0, tab)) + "\"",
                                    where);
    LabeledQuestion labeled{*type, std::string(line.substr(tab + 1)), line_number};
    (line_number % kHeldOutEvery == 0 ? set.held_out : set.train).push_back(std::move(labeled));
  }
  if (set.train.empty()) return core::invalid_argument("no labeled questions", std::string(origin));
  return set;
}

core::Result<LabeledQuestions> LabeledQuestions::load(const core::AssetStore& assets) {
  core::Result<std::string> text = assets.read(kRouterQuestionsAsset);
  if (!text) return text.error();
  return parse(*text, assets.origin(kRouterQuestionsAsset));
}

}  // namespace planfirst::analyst
