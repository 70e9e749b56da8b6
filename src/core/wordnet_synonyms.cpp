#include "core/wordnet_synonyms.hpp"

#include <wn.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace planfirst::core {
namespace {

// WordNet's library state is process-wide; this lock serializes every call into it.
std::mutex& library_mutex() {
  static std::mutex mutex;
  return mutex;
}

bool is_plain_word(std::string_view lemma) {
  return !lemma.empty() &&
         std::all_of(lemma.begin(), lemma.end(), [](unsigned char c) { return std::islower(c); });
}

// The plain lemmas of every synset of `word` as part of speech `pos`. REQUIRES: library_mutex held.
void collect(const std::string& word, int pos, std::set<std::string>& out) {
  std::vector<char> buffer(word.begin(), word.end());
  buffer.push_back('\0');
  SynsetPtr synsets = findtheinfo_ds(buffer.data(), pos, SYNS, ALLSENSES);
  for (SynsetPtr s = synsets; s != nullptr; s = s->nextss) {
    for (int i = 0; i < s->wcount; ++i) {
      if (is_plain_word(s->words[i])) out.insert(s->words[i]);
    }
  }
  if (synsets != nullptr) free_syns(synsets);
}

// `word`'s base forms as part of speech `pos` ("regions" -> "region"), `word` first.
// REQUIRES: library_mutex held.
std::vector<std::string> base_forms(const std::string& word, int pos) {
  std::vector<std::string> forms{word};
  std::vector<char> buffer(word.begin(), word.end());
  buffer.push_back('\0');
  for (char* form = morphstr(buffer.data(), pos); form != nullptr; form = morphstr(nullptr, pos)) {
    if (std::find(forms.begin(), forms.end(), form) == forms.end()) forms.emplace_back(form);
  }
  return forms;
}

}  // namespace

Result<std::shared_ptr<const WordNetSynonyms>> WordNetSynonyms::open() {
  static const Result<std::shared_ptr<const WordNetSynonyms>> kOpened = [] {
    const std::lock_guard<std::mutex> lock(library_mutex());
    if (wninit() != 0) {
      return Result<std::shared_ptr<const WordNetSynonyms>>(
          unavailable("WordNet's database could not be opened (install wordnet-base, or set WNSEARCHDIR)"));
    }
    return Result<std::shared_ptr<const WordNetSynonyms>>(std::make_shared<const WordNetSynonyms>());
  }();
  return kOpened;
}

std::vector<std::string> WordNetSynonyms::of(std::string_view word) const {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = cache_.find(word); it != cache_.end()) return it->second;
  }
  const std::string key(word);
  std::set<std::string> found;
  if (is_plain_word(key)) {
    const std::lock_guard<std::mutex> lock(library_mutex());
    for (int pos : {NOUN, ADJ}) {
      for (const std::string& form : base_forms(key, pos)) collect(form, pos, found);
    }
  }
  found.erase(key);
  std::vector<std::string> synonyms(found.begin(), found.end());
  const std::lock_guard<std::mutex> lock(mutex_);
  return cache_.emplace(key, std::move(synonyms)).first->second;
}

bool WordNetSynonyms::knows(std::string_view word) const {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = known_.find(word); it != known_.end()) return it->second;
  }
  bool known = false;
  if (is_plain_word(word)) {
    std::vector<char> buffer(word.begin(), word.end());
    buffer.push_back('\0');
    const std::lock_guard<std::mutex> lock(library_mutex());
    known = in_wn(buffer.data(), ALL_POS) != 0;
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  return known_.emplace(std::string(word), known).first->second;
}

}  // namespace planfirst::core
