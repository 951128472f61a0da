-- The examples of the two Torch7 seed documents (seed-torch7-tensor.md and
-- seed-torch7-reference.md in ../shared/spec), verbatim: copied into
-- tests/lua/testdata by tools/torch7_interop/extract_seed_examples.py and
-- run against dmlab.system.torch, in document order, in one REPL session
-- per document (an example may use what one before it made), each output
-- compared with the one the document shows (transcript.lua). The notes
-- (torch_seed_examples_notes.lua) say how an example that does not print
-- exactly that is checked, and why.
local testing = require 'testing'
local torch = require 'dmlab.system.torch'
local transcript = require 'transcript'
local notes = require 'torch_seed_examples_notes'

local dataDirectory = ... or 'tests/lua/testdata'

-- The examples of a data file: {heading, text} by number.
local function examples(file)
  local handle = assert(io.open(dataDirectory .. '/' .. file, 'rb'))
  local text = handle:read('*a')
  handle:close()
  local list, current = {}, nil
  for line in text:gmatch('(.-)\n') do
    local n, heading = line:match('^=== example (%d+): (.*)$')
    if n then
      current = {heading = heading, lines = {}}
      list[tonumber(n)] = current
    else
      current.lines[#current.lines + 1] = line
    end
  end
  return list
end

local exact, total = 0, 0
for _, document in ipairs({'seed-torch7-tensor.md', 'seed-torch7-reference.md'}) do
  local file = document:gsub('^seed%-torch7%-(%a+)%.md$', 'seed_torch7_%1.txt')
  local session = transcript.session({torch = torch, paths = require 'paths'})
  for n, example in ipairs(examples(file)) do
    local note = notes[document][n]
    total = total + 1
    if note == nil then exact = exact + 1 end
    local name = ('%s example %d (%s)'):format(document, n, example.heading)
    if note and note[1] == 'skip' then
      testing.skip(name, note[2])
    else
      testing.case(name, function()
        -- Each example starts from Torch7's default type, as a reader's.
        torch.setdefaulttensortype('torch.DoubleTensor')
        local ok, why = session:run(table.concat(example.lines, '\n'), note and note[1])
        testing.assertTrue(ok, why)
      end)
    end
  end
end

testing.case('most examples print exactly what their document shows', function()
  testing.assertEqual(total, 345)
  testing.assertTrue(exact >= 231, exact .. ' of ' .. total)
end)

testing.run()
