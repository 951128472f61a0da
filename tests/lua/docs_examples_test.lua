-- Runs every ```lua block of a document (the first argument, by default
-- docs/tensor.md) as a test case.
--
-- Each block runs in its own environment (globals do not leak from one
-- block to the next) and states what it shows with assert(...). Errors
-- report the line number in docs/tensor.md.
local testing = require 'testing'

local DOC = (...) or 'docs/tensor.md'
-- The fewest blocks the document must have: a parser that finds none fails.
local MIN_BLOCKS = tonumber((select(2, ...))) or 20

-- Under `bazel test` the working directory is the workspace's runfiles
-- root; TEST_SRCDIR/TEST_WORKSPACE is the same place, spelt out.
local function openDoc()
  local candidates = {DOC}
  local srcdir, workspace = os.getenv('TEST_SRCDIR'), os.getenv('TEST_WORKSPACE')
  if srcdir and workspace then
    candidates[#candidates + 1] = srcdir .. '/' .. workspace .. '/' .. DOC
  end
  for _, path in ipairs(candidates) do
    local file = io.open(path, 'r')
    if file then return file end
  end
  error('cannot open ' .. DOC .. ' (tried ' .. table.concat(candidates, ', ') .. ')')
end

-- The ```lua blocks of the document: {line = first code line, heading =
-- the nearest heading above, code = text}.
local function extractBlocks(text)
  local blocks = {}
  local heading = '(top)'
  local current
  local lineNumber = 0
  for line in (text .. '\n'):gmatch('([^\n]*)\n') do
    lineNumber = lineNumber + 1
    if current then
      if line:match('^```%s*$') then
        blocks[#blocks + 1] = current
        current = nil
      else
        current.lines[#current.lines + 1] = line
      end
    elseif line:match('^```lua%s*$') then
      current = {line = lineNumber + 1, heading = heading, lines = {}}
    elseif line:match('^#+%s') then
      heading = line:gsub('^#+%s+', '')
    end
  end
  if current then error(DOC .. ':' .. current.line .. ': unterminated ```lua block') end
  for _, block in ipairs(blocks) do block.code = table.concat(block.lines, '\n') end
  return blocks
end

local file = openDoc()
local text = file:read('*a')
file:close()
local blocks = extractBlocks(text)

local loadString = loadstring or load

testing.case(DOC .. ' has lua examples', function()
  testing.assertTrue(#blocks >= MIN_BLOCKS, 'only ' .. #blocks .. ' ```lua blocks found')
end)

for i, block in ipairs(blocks) do
  local name = string.format('%s:%d (%s) #%d', DOC, block.line, block.heading, i)
  testing.case(name, function()
    -- Padding with newlines makes the chunk's line numbers the document's.
    local source = string.rep('\n', block.line - 1) .. block.code
    local chunk, why = loadString(source, '@' .. DOC)
    if not chunk then error('does not compile: ' .. why, 0) end
    setfenv(chunk, setmetatable({}, {__index = _G}))
    local ok, err = pcall(chunk)
    if not ok then error(tostring(err), 0) end
  end)
end

testing.run()
