-- torch.class and the functions over class metatables. A class is a
-- table that is its objects' metatable (__index is itself), so methods
-- and metamethods such as __tostring go in the same table, as in Torch7.
-- For tensors, torch.getmetatable gives the class table (torch.DoubleTensor),
-- never the userdata's metatable.
local torch, internal = ...
local argumentError = internal.argumentError
local registry = {}  -- name -> class table

function internal.classOf(name)
  return registry[name] or internal.classes[(name:match('^torch%.(%a+Tensor)$') or '')]
end

-- [-0, +0] The table `name` ('nn.Linear') goes into: the global `nn` (or
-- `module`), and the field Linear of it; a name without a dot is global,
-- and 'torch.X' goes into this module.
local function setConstructor(name, constructor, module)
  local package, field = name:match('^(.*)%.([^.]+)$')
  local home = module
  if home == nil then
    if package == nil then
      home, field = _G, name
    elseif package == 'torch' then
      home = torch
    else
      home = _G
      for part in package:gmatch('[^.]+') do
        home = home[part]
        if type(home) ~= 'table' then
          argumentError('class', 1, "the package of '" .. name .. "' does not exist")
        end
      end
    end
  end
  home[field or name] = constructor
end

-- torch.class(name [, parentName] [, module]): the new class and its parent.
-- Calling the constructor makes an object and calls its __init(...).
function torch.class(name, parentName, module)
  if type(name) ~= 'string' then argumentError('class', 1, 'class name expected') end
  if type(parentName) == 'table' then parentName, module = nil, parentName end
  if registry[name] then argumentError('class', 1, "class '" .. name .. "' already exists") end
  local parent
  if parentName ~= nil then
    parent = internal.classOf(parentName)
    if parent == nil then argumentError('class', 2, "parent class '" .. tostring(parentName) .. "' does not exist") end
  end
  local class = {__typename = name, __parentname = parentName}
  class.__index = class
  setmetatable(class, {__index = parent})
  -- Torch7 objects inherit their parents' metamethods too.
  if parent then
    for _, event in ipairs({'__tostring', '__add', '__sub', '__mul', '__div', '__mod', '__unm',
                            '__len', '__eq', '__lt', '__le', '__concat', '__call'}) do
      if class[event] == nil and rawget(parent, event) ~= nil then
        class[event] = function(...) return parent[event](...) end
      end
    end
  end
  registry[name] = class
  local function new(_, ...)
    local object = setmetatable({}, class)
    if object.__init then object:__init(...) end
    return object
  end
  setConstructor(name, setmetatable({}, {__call = new, __index = class, __newindex = class}), module)
  return class, parent
end

-- torch.getmetatable(name): the class table of a type name (a storage
-- type's: its methods).
function torch.getmetatable(name)
  if type(name) ~= 'string' then argumentError('getmetatable', 1, 'type name expected') end
  return internal.classOf(name) or internal.storageMethods[name]
end

-- torch.newmetatable(name, parentName): torch.class without a constructor.
function torch.newmetatable(name, parentName)
  local class = torch.class(name, parentName, {})
  return class
end

-- torch.factory(name): a function that makes an uninitialised object.
function torch.factory(name)
  local class = internal.classOf(name)
  if class == nil then return nil end
  if internal.classes[name:match('^torch%.(%a+Tensor)$') or ''] then
    return function() return class() end
  end
  return function() return setmetatable({}, class) end
end

-- torch.setmetatable(table, name): makes a table an object of a class.
function torch.setmetatable(object, name)
  local class = internal.classOf(name)
  if type(object) ~= 'table' or registry[name] == nil then
    argumentError('setmetatable', 2, 'a torch.class name and a table expected')
  end
  return setmetatable(object, class)
end

-- torch.isequal(a, b): whether a and b are the same object.
function torch.isequal(a, b)
  return rawequal(a, b)
end
