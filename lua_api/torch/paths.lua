-- paths: Torch's file-system helpers over the system calls of
-- lua_api/torch/paths_module.cc (`system`). Not in the level sandbox.
local system = ...
local paths = {}

paths.dirp, paths.filep, paths.mkdir, paths.rmdir = system.dirp, system.filep, system.mkdir,
                                                    system.rmdir
paths.dir, paths.cwd = system.dir, system.cwd

-- concat(a, b, ...): joined with '/'; an absolute part restarts the path;
-- no parts: the working directory.
function paths.concat(...)
  local n = select('#', ...)
  if n == 0 then return system.cwd() end
  local path = ''
  for i = 1, n do
    local part = select(i, ...)
    if type(part) ~= 'string' then error(("bad argument #%d to 'concat' (string expected)"):format(i), 2) end
    if part:sub(1, 1) == '/' or path == '' then
      path = part
    elseif part ~= '' then
      path = path:gsub('/+$', '') .. '/' .. part
    end
  end
  return path
end

function paths.dirname(path)
  local directory = path:gsub('/+$', ''):match('^(.*)/[^/]*$')
  if directory == nil then return '.' end
  if directory == '' then return '/' end
  return directory
end

-- basename(path [, ext]): the last part, without ext (as '.lua' or 'lua').
function paths.basename(path, ext)
  local name = path:gsub('/+$', ''):match('([^/]*)$')
  if ext then
    ext = ext:sub(1, 1) == '.' and ext or '.' .. ext
    if name:sub(-#ext) == ext then name = name:sub(1, -#ext - 1) end
  end
  return name
end

function paths.extname(path)
  return paths.basename(path):match('%.([^.]+)$')
end

-- files(dir [, include]): an iterator over the names in dir, those that
-- match the pattern or for which the function is true.
function paths.files(directory, include)
  local names = system.dir(directory) or {}
  local i = 0
  return function()
    while true do
      i = i + 1
      local name = names[i]
      if name == nil then return nil end
      if include == nil or (type(include) == 'function' and include(name)) or
          (type(include) == 'string' and name:find(include)) then
        return name
      end
    end
  end
end

local function iterate(directory, keep)
  local names = paths.files(directory)
  return function()
    for name in names do
      if name ~= '.' and name ~= '..' and keep(paths.concat(directory, name)) then return name end
    end
  end
end

function paths.iterdirs(directory) return iterate(directory, system.dirp) end
function paths.iterfiles(directory) return iterate(directory, system.filep) end

-- rmall(path, 'yes'): removes a file or a whole tree; 'yes' is required.
function paths.rmall(path, confirm)
  if confirm ~= 'yes' then error("'rmall': pass 'yes' as the second argument to confirm", 2) end
  if system.dirp(path) then
    for name in paths.files(path) do
      if name ~= '.' and name ~= '..' then
        local ok, why = paths.rmall(paths.concat(path, name), 'yes')
        if not ok then return nil, why end
      end
    end
    return system.rmdir(path)
  end
  return system.remove(path)
end

return paths
