-- Drives a language server from a real, headless Neovim (0.7 API: vim.lsp.start_client) and
-- writes what Neovim saw as JSON. Run as
--
--   I18NPRUNE_NVIM_SCENARIO=scenario.json nvim --headless --clean -u scenario.lua
--
-- scenario.json: {"cmd": [...], "root": DIR, "file": "src/app.ts", "output": FILE,
--   "timeout_ms": N, "filetypes": ["typescript", "json"],
--   "hover": {"find": TEXT, "offset": N}, "complete": {"find": TEXT, "offset": N},
--   "code_action": {"find": TEXT, "offset": N, "title": [TEXTS THE TITLE CONTAINS], "file": LOCALE},
--   "rename": {"find": TEXT, "offset": N, "new_name": NAME}}
--
-- Every step goes through Neovim's own LSP code: diagnostics through vim.diagnostic, the hover
-- float of vim.lsp.buf.hover(), completion items as Neovim converts them, the code action that
-- vim.lsp.buf.code_action() applies (vim.ui.select answered with the action named in the
-- scenario), and the rename vim.lsp.buf.rename() applies after prepareRename. Buffers changed by a
-- WorkspaceEdit are written with :wall, as a user would. Positions: "find" is plain text searched
-- in the buffer, "offset" counts bytes from its start.

local loaded, scenario = pcall(function()
  return vim.json.decode(table.concat(vim.fn.readfile(os.getenv('I18NPRUNE_NVIM_SCENARIO')), '\n'))
end)
if not loaded then
  io.stderr:write('cannot read the scenario named by I18NPRUNE_NVIM_SCENARIO: ' .. tostring(scenario) .. '\n')
  vim.cmd('cquit 2')
end
local timeout = scenario.timeout_ms or 60000
local report = { steps = {} }

local function record(name, value)
  report.steps[name] = value
end

local function wait(what, condition)
  if not vim.wait(timeout, condition, 20) then
    error('gave up waiting for ' .. what .. ' after ' .. timeout .. ' ms')
  end
end

local function buffer_text(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
end

local function cursor_at(bufnr, where)
  for lnum, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local start = string.find(line, where.find, 1, true)
    if start then
      vim.api.nvim_win_set_cursor(0, { lnum, start - 1 + (where.offset or 0) })
      return
    end
  end
  error(where.find .. ' is not in the buffer')
end

local function diagnostics_of(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(found, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, message = d.message, source = d.source, code = lsp.code, tags = lsp.tags,
    })
  end
  table.sort(found, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  return found
end

local function floating_windows()
  local floats = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      table.insert(floats, win)
    end
  end
  return floats
end

local function written_buffers()
  local files = {}
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(bufnr)
    if vim.api.nvim_buf_is_loaded(bufnr) and name:sub(1, #scenario.root) == scenario.root then
      files[name:sub(#scenario.root + 2)] = buffer_text(bufnr)
    end
  end
  return files
end

local function run()
  vim.cmd('filetype on')
  local client_id = vim.lsp.start_client({
    name = 'i18nprune',
    on_exit = function(code, signal) report.server_exit = { code = code, signal = signal } end,
    cmd = scenario.cmd,
    root_dir = scenario.root,
    workspace_folders = { { uri = vim.uri_from_fname(scenario.root), name = 'project' } },
  })
  assert(client_id, 'vim.lsp.start_client did not start the server')
  -- Attach every buffer of these filetypes, as lspconfig does on FileType: the locale files a
  -- WorkspaceEdit loads are attached too, so the server sees their edits and saves.
  vim.api.nvim_create_autocmd('FileType', {
    pattern = scenario.filetypes,
    callback = function(args) vim.lsp.buf_attach_client(args.buf, client_id) end,
  })
  vim.cmd('edit ' .. vim.fn.fnameescape(scenario.root .. '/' .. scenario.file))
  local bufnr = vim.api.nvim_get_current_buf()
  record('filetype', vim.bo[bufnr].filetype)
  wait('the server to initialize', function()
    local client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized
  end)
  local client = vim.lsp.get_client_by_id(client_id)
  record('offset_encoding', client.offset_encoding)
  record('server_capabilities', client.server_capabilities)

  wait('diagnostics', function() return #vim.diagnostic.get(bufnr) > 0 end)
  record('diagnostics', diagnostics_of(bufnr))

  -- Hover: the float vim.lsp.buf.hover() opens, as the user sees it.
  cursor_at(bufnr, scenario.hover)
  vim.lsp.buf.hover()
  wait('the hover window', function() return #floating_windows() > 0 end)
  local float = floating_windows()[1]
  record('hover', vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false))
  vim.api.nvim_win_close(float, true)

  -- Completion: the items Neovim builds from the server's answer (what its menu lists).
  cursor_at(bufnr, scenario.complete)
  local params = vim.lsp.util.make_position_params()
  local answers = vim.lsp.buf_request_sync(bufnr, 'textDocument/completion', params, timeout)
  local answer = assert(answers and answers[client_id], 'no completion answer')
  assert(not answer.err, vim.inspect(answer.err))
  local items = vim.lsp.util.text_document_completion_list_to_complete_items(answer.result, '')
  record('completion', vim.tbl_map(function(item)
    return { word = item.word, abbr = item.abbr, menu = item.menu, info = item.info }
  end, items))

  -- Code action: Neovim asks vim.ui.select; answer with the scenario's action.
  cursor_at(bufnr, scenario.code_action)
  local offered, chosen = nil, nil
  vim.ui.select = function(choices, opts, on_choice)
    offered = vim.tbl_map(function(choice) return opts.format_item(choice) end, choices)
    local function wanted(title)
      for _, part in ipairs(scenario.code_action.title) do
        if not string.find(title, part, 1, true) then return false end
      end
      return true
    end
    for _, choice in ipairs(choices) do
      if wanted(choice[2].title) then
        chosen = choice[2].title
        on_choice(choice)
        return
      end
    end
    chosen = false
    on_choice(nil)
  end
  vim.lsp.buf.code_action()
  wait('the code action menu', function() return offered ~= nil end)
  record('code_action', { offered = offered, chosen = chosen })
  local locale = vim.fn.bufnr(scenario.root .. '/' .. scenario.code_action.file)
  record('code_action_buffer', locale ~= -1 and buffer_text(locale) or nil)
  vim.cmd('silent wall')
  -- The key is in the source locale now: the error on its call should go.
  local errors = function() return #vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR }) end
  record('error_cleared_after_code_action', vim.wait(timeout, function() return errors() == 0 end, 20))
  record('diagnostics_after_code_action', diagnostics_of(bufnr))

  -- Rename: prepareRename, then the rename Neovim applies to every file of the WorkspaceEdit.
  cursor_at(bufnr, scenario.rename)
  local before = vim.api.nvim_buf_get_changedtick(bufnr)
  vim.lsp.buf.rename(scenario.rename.new_name)
  wait('the rename to change the buffer', function() return vim.api.nvim_buf_get_changedtick(bufnr) ~= before end)
  vim.cmd('silent wall')
  record('files_after_rename', written_buffers())

  -- shutdown, then exit: the server should end by itself.
  vim.lsp.stop_client(client_id)
  wait('the server to exit', function() return report.server_exit ~= nil end)
end

local ok, failure = xpcall(run, debug.traceback)
report.ok = ok
report.error = not ok and failure or nil
report.lsp_log = vim.lsp.get_log_path()
vim.fn.writefile({ vim.json.encode(report) }, scenario.output)
vim.cmd('qa!')
