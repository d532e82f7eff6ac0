" SPDX-License-Identifier: Apache-2.0
" schedlint.vim: fixes a YAML buffer with `schedlint fmt` each time it is written (Vim 8+,
" Vim 9, Neovim). The buffer, not the file on disk, goes to `schedlint fmt --stdin-filename
" PATH -` on stdin; its lines are replaced only when schedlint exits 0 and printed something.
" A schedlint that is missing, fails (a YAML syntax error, a bad config: exit 2), is killed or
" does not answer within g:schedlint_timeout seconds leaves the buffer as it was, with a
" warning, and the write goes ahead.
" Unlike `formatprg` + `gq` or `:%!`, which put the command's error text (or nothing) in the
" buffer when it fails, stderr never reaches the buffer here.
"
" Install: copy it to ~/.vim/plugin/ (Neovim: ~/.config/nvim/plugin/), or :source it from
" your vimrc. It runs on writes of *.yaml, *.yml and buffers with 'filetype' yaml.
"   g:schedlint_command  the program (default 'schedlint')
"   g:schedlint_on_save  0 turns the write hook off; :SchedlintFmt still fixes by hand
"   g:schedlint_timeout  seconds to wait before giving up (default 5; through coreutils'
"                        timeout, when it is on PATH)
" Tested headless in Vim 9.0 and Neovim 0.7 by tests/editors/run.

if exists('g:loaded_schedlint')
  finish
endif
let g:loaded_schedlint = 1

function! s:Warn(msg) abort
  echohl WarningMsg
  echomsg 'schedlint fmt: ' . a:msg . '; the buffer is left as it is'
  echohl None
endfunction

function! s:Fmt() abort
  let l:exe = get(g:, 'schedlint_command', 'schedlint')
  if !executable(l:exe)
    return s:Warn(l:exe . ' is not on PATH')
  endif
  let l:lines = getline(1, '$')
  if l:lines == ['']
    return
  endif
  let l:errfile = tempname()
  " Through /bin/sh whatever the user's 'shell' (csh, say, has no 2>); shellescape() and
  " systemlist() both follow these options.
  let l:saved = [&shell, &shellcmdflag, &shellredir, &shellquote, &shellxquote]
  set shell=/bin/sh shellcmdflag=-c shellredir=>%s\ 2>&1 shellquote= shellxquote=
  try
    let l:timeout = get(g:, 'schedlint_timeout', 5)
    let l:cmd = (executable('timeout') ? 'timeout ' . l:timeout . ' ' : '')
          \ . shellescape(l:exe) . ' fmt'
    if expand('%') !=# ''
      let l:cmd .= ' --stdin-filename ' . shellescape(expand('%:p'))
    endif
    " stderr to a file of its own: 'shellredir' would mix it into the output.
    let l:cmd .= ' - 2>' . shellescape(l:errfile)
    " The lines as Vim writes them, a newline after each ('fileformat' and 'bomb' stay Vim's).
    let l:out = systemlist(l:cmd, l:lines + [''])
    let l:status = v:shell_error
  catch
    " Vim could not run it at all (no temp file, say): warn, never abort the write.
    call delete(l:errfile)
    return s:Warn(v:exception)
  finally
    let [&shell, &shellcmdflag, &shellredir, &shellquote, &shellxquote] = l:saved
  endtry
  let l:err = filereadable(l:errfile) ? readfile(l:errfile) : []
  call delete(l:errfile)
  if l:status == 124 && executable('timeout')
    return s:Warn(printf('no answer in %d s', get(g:, 'schedlint_timeout', 5)))
  elseif l:status != 0
    return s:Warn(printf('exit %d%s', l:status, empty(l:err) ? '' : ': ' . l:err[0]))
  elseif empty(l:out)
    return s:Warn('no output')
  endif
  if l:out ==# l:lines
    return
  endif
  let l:view = winsaveview()
  call setline(1, l:out)
  if line('$') > len(l:out)
    silent execute (len(l:out) + 1) . ',$delete _'
  endif
  call winrestview(l:view)
endfunction

command! -bar SchedlintFmt call s:Fmt()

augroup schedlint
  autocmd!
  autocmd BufWritePre *
        \ if get(g:, 'schedlint_on_save', 1) &&
        \    (&filetype ==# 'yaml' || expand('<afile>') =~? '\.ya\?ml$') |
        \   call s:Fmt() |
        \ endif
augroup END
