# bash completion for srs
# Generated from the srs command tree by `srs completion bash` (or: node scripts/completions.mjs); do not edit.
# Install: source it from ~/.bashrc, e.g. `source <(srs completion bash)`, or copy it to
# ~/.local/share/bash-completion/completions/srs (loaded on demand by bash-completion).
# Values for --country and --industry come from srs's cache in DATA_DIR/completion/ ($SRS_DATA_DIR,
# else $XDG_DATA_HOME/srs, else ~/.local/share/srs), refreshed by `srs ref countries` and `srs ref industries`.

# The subcommands of a command path (names and aliases).
_srs_subcommands() {
  case $1 in
    '') _srs_r=(supplier scorecards score emissions news data-entry ref auth emulator completion api schema) ;;
    'supplier') _srs_r=(create get ls list find import) ;;
    'scorecards') _srs_r=(ls list get) ;;
    'score') _srs_r=(calc explain report recompute check) ;;
    'emissions') _srs_r=(ls list) ;;
    'news') _srs_r=(ls list) ;;
    'data-entry') _srs_r=(get) ;;
    'ref') _srs_r=(countries industries sources categories) ;;
    'auth') _srs_r=(login switch status logout) ;;
    'emulator') _srs_r=(start fixtures) ;;
    *) _srs_r=() ;;
  esac
}

# The name of the subcommand WORD (a name or an alias) of a command path, or nothing.
_srs_child() {
  case $1/$2 in
    '/supplier') _srs_w=supplier ;;
    '/scorecards') _srs_w=scorecards ;;
    '/score') _srs_w=score ;;
    '/emissions') _srs_w=emissions ;;
    '/news') _srs_w=news ;;
    '/data-entry') _srs_w=data-entry ;;
    '/ref') _srs_w=ref ;;
    '/auth') _srs_w=auth ;;
    '/emulator') _srs_w=emulator ;;
    '/completion') _srs_w=completion ;;
    '/api') _srs_w=api ;;
    '/schema') _srs_w=schema ;;
    'supplier/create') _srs_w=create ;;
    'supplier/get') _srs_w=get ;;
    'supplier/ls'|'supplier/list') _srs_w=ls ;;
    'supplier/find') _srs_w=find ;;
    'supplier/import') _srs_w=import ;;
    'scorecards/ls'|'scorecards/list') _srs_w=ls ;;
    'scorecards/get') _srs_w=get ;;
    'score/calc') _srs_w=calc ;;
    'score/explain') _srs_w=explain ;;
    'score/report') _srs_w=report ;;
    'score/recompute') _srs_w=recompute ;;
    'score/check') _srs_w=check ;;
    'emissions/ls'|'emissions/list') _srs_w=ls ;;
    'news/ls'|'news/list') _srs_w=ls ;;
    'data-entry/get') _srs_w=get ;;
    'ref/countries') _srs_w=countries ;;
    'ref/industries') _srs_w=industries ;;
    'ref/sources') _srs_w=sources ;;
    'ref/categories') _srs_w=categories ;;
    'auth/login') _srs_w=login ;;
    'auth/switch') _srs_w=switch ;;
    'auth/status') _srs_w=status ;;
    'auth/logout') _srs_w=logout ;;
    'emulator/start') _srs_w=start ;;
    'emulator/fixtures') _srs_w=fixtures ;;
    *) _srs_w= ;;
  esac
}

# Whether an option of a command path takes a value from the next word.
_srs_takes_value() {
  case $1/$2 in
    'supplier create/--name'|'supplier create/--country'|'supplier create/--website'|'supplier create/--industry'|'supplier create/--category'|'supplier create/--contact'|'supplier create/--customer-id'|'supplier create/--json') return 0 ;;
    'supplier get/--customer-id') return 0 ;;
    'supplier ls/--state') return 0 ;;
    'supplier find/--state') return 0 ;;
    'supplier import/--concurrency'|'supplier import/--max-concurrency'|'supplier import/--encoding'|'supplier import/--delimiter'|'supplier import/--map'|'supplier import/--journal'|'supplier import/--report'|'supplier import/--failed') return 0 ;;
    'scorecards ls/--supplier'|'scorecards ls/--limit'|'scorecards ls/--page'|'scorecards ls/--per-page') return 0 ;;
    'score calc/--ids-file'|'score calc/--policy-parameter'|'score calc/--data-source'|'score calc/--breakdown'|'score calc/--save'|'score calc/--concurrency') return 0 ;;
    'score explain/--policy-parameter'|'score explain/--data-source'|'score explain/--from'|'score explain/--expiring-within') return 0 ;;
    'score report/--ids-file'|'score report/--policy-parameter'|'score report/--data-source'|'score report/--html'|'score report/--title'|'score report/--expiring-within'|'score report/--tolerance'|'score report/--accept-model'|'score report/--concurrency') return 0 ;;
    'score recompute/--scorecards'|'score recompute/--tolerance'|'score recompute/--accept-model'|'score recompute/--as-of'|'score recompute/--mode'|'score recompute/--claim-weight') return 0 ;;
    'score check/--ids-file'|'score check/--policy-parameter'|'score check/--data-source'|'score check/--from'|'score check/--accept-model'|'score check/--min'|'score check/--min-parameter'|'score check/--max-risk'|'score check/--expiring-within'|'score check/--baseline'|'score check/--max-drop'|'score check/--junit') return 0 ;;
    'news ls/--data-entry'|'news ls/--limit'|'news ls/--page'|'news ls/--per-page') return 0 ;;
    'ref countries/--limit'|'ref countries/--page'|'ref countries/--per-page') return 0 ;;
    'ref industries/--limit'|'ref industries/--page'|'ref industries/--per-page') return 0 ;;
    'ref sources/--limit'|'ref sources/--page'|'ref sources/--per-page') return 0 ;;
    'ref categories/--limit'|'ref categories/--page'|'ref categories/--per-page') return 0 ;;
    'emulator start/--port'|'emulator start/--api-key'|'emulator start/--seed'|'emulator start/--suppliers'|'emulator start/--state'|'emulator start/--last-page'|'emulator start/--latency'|'emulator start/--rate-limit'|'emulator start/--capacity'|'emulator start/--reset-rate'|'emulator start/--fail-rate'|'emulator start/--stall-rate'|'emulator start/--fail-after-commit-rate'|'emulator start/--echo-key-rate') return 0 ;;
    'emulator fixtures/--seed'|'emulator fixtures/--suppliers') return 0 ;;
    'api/-f'|'api/--field'|'api/--input') return 0 ;;
  esac
  case $2 in
    '-o'|'--output'|'--fields'|'--query'|'--profile'|'--base-url'|'--timeout'|'--retries'|'--max-pages'|'--catalog') return 0 ;;
  esac
  return 1
}

# The options of a command path, its own and the global ones.
_srs_options() {
  case $1 in
    '') _srs_r=(-V --version) ;;
    'supplier create') _srs_r=(--name --country --website --industry --category --contact --customer-id --json --allow-existing --retry-unknown) ;;
    'supplier get') _srs_r=(--customer-id) ;;
    'supplier ls') _srs_r=(--state) ;;
    'supplier find') _srs_r=(--state) ;;
    'supplier import') _srs_r=(--dry-run --concurrency --max-concurrency --encoding --delimiter --map --journal --journal-fsync --retry-unknown --allow-existing --report --failed) ;;
    'scorecards ls') _srs_r=(--supplier --limit --page --per-page --all) ;;
    'score calc') _srs_r=(--ids-file --policy-parameter --data-source --exclude-zero-values --breakdown --save --concurrency) ;;
    'score explain') _srs_r=(--policy-parameter --data-source --exclude-zero-values --from --expiring-within --ascii) ;;
    'score report') _srs_r=(--ids-file --policy-parameter --data-source --exclude-zero-values --html --title --expiring-within --tolerance --verify --no-verify --accept-model --allow-undigested --concurrency) ;;
    'score recompute') _srs_r=(--scorecards --verify --tolerance --accept-model --allow-undigested --only-differences --as-of --mode --claim-weight) ;;
    'score check') _srs_r=(--ids-file --policy-parameter --data-source --exclude-zero-values --from --no-verify --accept-model --allow-undigested --min --min-parameter --max-risk --expiring-within --baseline --max-drop --baseline-strict --allow-no-data --require-score --junit) ;;
    'emissions ls') _srs_r=(--ascii) ;;
    'news ls') _srs_r=(--data-entry --limit --page --per-page --all) ;;
    'ref countries') _srs_r=(--limit --page --per-page --all) ;;
    'ref industries') _srs_r=(--all-levels --limit --page --per-page --all) ;;
    'ref sources') _srs_r=(--limit --page --per-page --all) ;;
    'ref categories') _srs_r=(--limit --page --per-page --all) ;;
    'auth login') _srs_r=(--with-key --activate) ;;
    'emulator start') _srs_r=(--port --api-key --seed --suppliers --state --last-page --nulls --log --admin --latency --rate-limit --capacity --reset-rate --fail-rate --stall-rate --fail-after-commit-rate --echo-key-rate) ;;
    'emulator fixtures') _srs_r=(--seed --suppliers) ;;
    'api') _srs_r=(-f --field --input --paginate) ;;
    *) _srs_r=() ;;
  esac
  _srs_r+=(-o --output --fields --query --profile --base-url --sandbox --timeout --retries --max-pages --insecure-http --csv-raw --csv-bom --wide -q --quiet --catalog --no-catalog --no-color --debug -h --help)
}

# What the value of an option can be: _srs_kind is words (listed in _srs_r), files, cache:NAME or none.
_srs_option_values() {
  _srs_kind=none; _srs_r=()
  case $1/$2 in
    'supplier create/--country') _srs_kind=cache:countries; return ;;
    'supplier create/--industry') _srs_kind=cache:industries; return ;;
    'supplier create/--json') _srs_kind=files; return ;;
    'supplier ls/--state') _srs_kind=words; _srs_r=(created unknown); return ;;
    'supplier find/--state') _srs_kind=words; _srs_r=(created unknown); return ;;
    'supplier import/--journal') _srs_kind=files; return ;;
    'supplier import/--report') _srs_kind=files; return ;;
    'supplier import/--failed') _srs_kind=files; return ;;
    'score calc/--ids-file') _srs_kind=files; return ;;
    'score calc/--breakdown') _srs_kind=words; _srs_r=(sources parameters entries); return ;;
    'score calc/--save') _srs_kind=files; return ;;
    'score explain/--from') _srs_kind=files; return ;;
    'score report/--ids-file') _srs_kind=files; return ;;
    'score report/--html') _srs_kind=files; return ;;
    'score recompute/--scorecards') _srs_kind=files; return ;;
    'score recompute/--mode') _srs_kind=words; _srs_r=(parameters scorecards); return ;;
    'score check/--ids-file') _srs_kind=files; return ;;
    'score check/--from') _srs_kind=files; return ;;
    'score check/--baseline') _srs_kind=files; return ;;
    'score check/--junit') _srs_kind=files; return ;;
    'emulator start/--state') _srs_kind=files; return ;;
    'emulator start/--last-page') _srs_kind=words; _srs_r=(null absent zero same past); return ;;
    'api/--input') _srs_kind=files; return ;;
  esac
  case $2 in
    '-o'|'--output') _srs_kind=words; _srs_r=(table json ndjson csv) ;;
    '--catalog') _srs_kind=files ;;
  esac
}

# What the Nth (from 0) argument of a command path can be: _srs_kind as above, or empty when the command takes no arguments.
_srs_positional() {
  _srs_kind=; _srs_r=()
  case $1 in
    'supplier get') _srs_kind=none ;;
    'supplier find') _srs_kind=none ;;
    'supplier import') _srs_kind=none; (( $2 == 0 )) && { _srs_kind=files; } ;;
    'scorecards get') _srs_kind=none ;;
    'score calc') _srs_kind=none ;;
    'score explain') _srs_kind=none ;;
    'score report') _srs_kind=none; (( $2 >= 0 )) && { _srs_kind=files; } ;;
    'score recompute') _srs_kind=none; (( $2 == 0 )) && { _srs_kind=files; } ;;
    'score check') _srs_kind=none ;;
    'emissions ls') _srs_kind=none ;;
    'news ls') _srs_kind=none ;;
    'data-entry get') _srs_kind=none ;;
    'auth switch') _srs_kind=none ;;
    'completion') _srs_kind=none; (( $2 == 0 )) && { _srs_kind=words; _srs_r=(bash zsh fish); } ;;
    'api') _srs_kind=none ;;
    'schema') _srs_kind=none ;;
  esac
  return 0
}

# The entries of a value cache: DATA_DIR/completion/NAME.txt, found the way srs finds its data directory.
_srs_cache() {
  local dir file line code
  _srs_r=()
  if [[ -n ${SRS_DATA_DIR-} ]]; then dir=$SRS_DATA_DIR
  elif [[ ${XDG_DATA_HOME-} == /* ]]; then dir=$XDG_DATA_HOME/srs
  else dir=${HOME-}/.local/share/srs
  fi
  file=$dir/completion/$1.txt
  [[ -r $file ]] || return 0
  while IFS= read -r line || [[ -n $line ]]; do
    line=${line%$'\r'}
    code=${line%%$'\t'*}
    [[ -z $code || $code == '#'* ]] && continue
    _srs_r+=("$code")
  done < "$file"
}

_srs() {
  local cur=${COMP_WORDS[COMP_CWORD]} cword=$COMP_CWORD
  local cmdpath= help= leaf= opt= prefix= w i nargs=0 _srs_kind= _srs_w=
  local -a _srs_r=()
  COMPREPLY=()
  # Walk the words before the cursor: subcommands, options (and the values they take), arguments.
  # bash splits --option=value into three words (= is in COMP_WORDBREAKS).
  for ((i = 1; i < cword; i++)); do
    w=${COMP_WORDS[i]}
    case $w in
      =) ((++i)); continue ;;
      --*=*) continue ;;
      -?*)
        if _srs_takes_value "$cmdpath" "$w"; then
          if [[ ${COMP_WORDS[i+1]-} == = ]]; then ((i += 2)); else ((i += 1)); fi
          if ((i >= cword)); then opt=$w; fi
        fi
        continue ;;
    esac
    if [[ -n $leaf ]]; then ((++nargs)); continue; fi
    if [[ -z $cmdpath && -z $help && $w == help ]]; then help=1; continue; fi
    _srs_child "$cmdpath" "$w"
    if [[ -n $_srs_w ]]; then cmdpath=${cmdpath:+$cmdpath }$_srs_w; else leaf=1; ((++nargs)); fi
  done
  if [[ -n $opt && $cur == = ]]; then cur=; fi
  if [[ -z $opt && $cur == --?*=* ]] && _srs_takes_value "$cmdpath" "${cur%%=*}"; then
    opt=${cur%%=*}; prefix=$opt=; cur=${cur#*=}
  fi

  if [[ -n $opt ]]; then
    _srs_option_values "$cmdpath" "$opt"
  elif [[ -n $help ]]; then
    _srs_subcommands "$cmdpath"; _srs_kind=words
  elif [[ $cur == -* ]]; then
    _srs_options "$cmdpath"; _srs_kind=words
  else
    _srs_r=()
    [[ -z $leaf ]] && _srs_subcommands "$cmdpath"
    if ((${#_srs_r[@]})); then
      _srs_kind=words
      [[ -z $cmdpath ]] && _srs_r+=(help)
    else
      _srs_positional "$cmdpath" "$nargs"
      if [[ -z $_srs_kind ]]; then _srs_options "$cmdpath"; _srs_kind=words; fi
    fi
  fi

  case $_srs_kind in
    words)
      for w in "${_srs_r[@]}"; do [[ $w == "$cur"* ]] && COMPREPLY+=("$prefix$w"); done ;;
    cache:*)
      _srs_cache "${_srs_kind#cache:}"
      local lower=${cur,,}
      for w in "${_srs_r[@]}"; do [[ ${w,,} == "$lower"* ]] && COMPREPLY+=("$prefix$w"); done ;;
    files)
      compopt -o filenames 2>/dev/null
      if [[ -z $prefix ]] && declare -F _filedir >/dev/null; then
        _filedir
      else
        while IFS= read -r w; do COMPREPLY+=("$prefix$w"); done < <(compgen -f -- "$cur")
      fi ;;
  esac
  return 0
}

complete -F _srs srs
