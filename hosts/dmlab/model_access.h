// The engine's access to models (dmlab_abi.h's DmlabModelGetters and
// DmlabModelSetters) over engine_plugin::model::Model: the getters let
// the engine read a model the level built (api:createModel) to make its
// MD3; the setters receive one the engine loaded (model:loadMD3).
//
// The engine's indices are checked: one out of range reads zeros and
// writes nothing, and a loaded model that breaks the rules (a face
// outside its surface's vertices, more than kMaxVertices vertices) is an
// error at Finish.
#ifndef HOSTS_DMLAB_MODEL_ACCESS_H_
#define HOSTS_DMLAB_MODEL_ACCESS_H_

#include <string>

#include "engine_plugin/model/model.h"
#include "hosts/dmlab/dmlab_abi.h"

namespace hosts::dmlab {

// The getters; their model_data is a const engine_plugin::model::Model*.
const DmlabModelGetters& ModelGetters();

// A model the engine fills through ModelSetters() (model_data: this).
struct ModelBuilder {
  engine_plugin::model::Model model;
  std::string error;  // the first rule the engine's data broke

  // "" and the model, or why the engine's data is not one.
  std::string Finish(engine_plugin::model::Model* out);
};

const DmlabModelSetters& ModelSetters();

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_MODEL_ACCESS_H_
