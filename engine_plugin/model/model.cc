#include "engine_plugin/model/model.h"

namespace engine_plugin::model {

const Affine* Model::Locator(const std::string& name) const {
  for (const auto& [locator_name, frame] : locators) {
    if (locator_name == name) return &frame;
  }
  return nullptr;
}

void Model::SetLocator(const std::string& name, const Affine& frame) {
  for (auto& [locator_name, existing] : locators) {
    if (locator_name == name) {
      existing = frame;
      return;
    }
  }
  locators.emplace_back(name, frame);
}

}  // namespace engine_plugin::model
