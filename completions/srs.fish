# fish completion for srs
# Generated from the srs command tree by `srs completion fish` (or: node scripts/completions.mjs); do not edit.
# Install: copy it to ~/.config/fish/completions/srs.fish, or run `srs completion fish | source`.
# Values for --country and --industry come from srs's cache in DATA_DIR/completion/ ($SRS_DATA_DIR,
# else $XDG_DATA_HOME/srs, else ~/.local/share/srs), refreshed by `srs ref countries` and `srs ref industries`.

function __srs_child --argument-names cmdpath word --description 'The subcommand WORD (a name or an alias) of a command path'
    switch "$cmdpath/$word"
        case '/supplier'
            echo supplier
        case '/scorecards'
            echo scorecards
        case '/score'
            echo score
        case '/emissions'
            echo emissions
        case '/news'
            echo news
        case '/data-entry'
            echo data-entry
        case '/ref'
            echo ref
        case '/auth'
            echo auth
        case '/emulator'
            echo emulator
        case '/completion'
            echo completion
        case '/api'
            echo api
        case '/schema'
            echo schema
        case 'supplier/create'
            echo create
        case 'supplier/get'
            echo get
        case 'supplier/ls' 'supplier/list'
            echo ls
        case 'supplier/find'
            echo find
        case 'supplier/import'
            echo import
        case 'scorecards/ls' 'scorecards/list'
            echo ls
        case 'scorecards/get'
            echo get
        case 'score/calc'
            echo calc
        case 'score/explain'
            echo explain
        case 'score/report'
            echo report
        case 'score/recompute'
            echo recompute
        case 'score/check'
            echo check
        case 'emissions/ls' 'emissions/list'
            echo ls
        case 'news/ls' 'news/list'
            echo ls
        case 'data-entry/get'
            echo get
        case 'ref/countries'
            echo countries
        case 'ref/industries'
            echo industries
        case 'ref/sources'
            echo sources
        case 'ref/categories'
            echo categories
        case 'auth/login'
            echo login
        case 'auth/switch'
            echo switch
        case 'auth/status'
            echo status
        case 'auth/logout'
            echo logout
        case 'emulator/start'
            echo start
        case 'emulator/fixtures'
            echo fixtures
    end
end

function __srs_takes_value --argument-names cmdpath flag --description 'Whether an option takes a value from the next word'
    switch "$cmdpath/$flag"
        case 'supplier create/--name' 'supplier create/--country' 'supplier create/--website' 'supplier create/--industry' 'supplier create/--category' 'supplier create/--contact' 'supplier create/--customer-id' 'supplier create/--json'
            return 0
        case 'supplier get/--customer-id'
            return 0
        case 'supplier ls/--state'
            return 0
        case 'supplier find/--state'
            return 0
        case 'supplier import/--concurrency' 'supplier import/--max-concurrency' 'supplier import/--encoding' 'supplier import/--delimiter' 'supplier import/--map' 'supplier import/--journal' 'supplier import/--report' 'supplier import/--failed'
            return 0
        case 'scorecards ls/--supplier' 'scorecards ls/--limit' 'scorecards ls/--page' 'scorecards ls/--per-page'
            return 0
        case 'score calc/--ids-file' 'score calc/--policy-parameter' 'score calc/--data-source' 'score calc/--breakdown' 'score calc/--save' 'score calc/--concurrency'
            return 0
        case 'score explain/--policy-parameter' 'score explain/--data-source' 'score explain/--from' 'score explain/--expiring-within'
            return 0
        case 'score report/--ids-file' 'score report/--policy-parameter' 'score report/--data-source' 'score report/--html' 'score report/--title' 'score report/--expiring-within' 'score report/--tolerance' 'score report/--accept-model' 'score report/--concurrency'
            return 0
        case 'score recompute/--scorecards' 'score recompute/--tolerance' 'score recompute/--accept-model' 'score recompute/--as-of' 'score recompute/--mode' 'score recompute/--claim-weight'
            return 0
        case 'score check/--ids-file' 'score check/--policy-parameter' 'score check/--data-source' 'score check/--from' 'score check/--accept-model' 'score check/--min' 'score check/--min-parameter' 'score check/--max-risk' 'score check/--expiring-within' 'score check/--baseline' 'score check/--max-drop' 'score check/--junit'
            return 0
        case 'news ls/--data-entry' 'news ls/--limit' 'news ls/--page' 'news ls/--per-page'
            return 0
        case 'ref countries/--limit' 'ref countries/--page' 'ref countries/--per-page'
            return 0
        case 'ref industries/--limit' 'ref industries/--page' 'ref industries/--per-page'
            return 0
        case 'ref sources/--limit' 'ref sources/--page' 'ref sources/--per-page'
            return 0
        case 'ref categories/--limit' 'ref categories/--page' 'ref categories/--per-page'
            return 0
        case 'emulator start/--port' 'emulator start/--api-key' 'emulator start/--seed' 'emulator start/--suppliers' 'emulator start/--state' 'emulator start/--last-page' 'emulator start/--latency' 'emulator start/--rate-limit' 'emulator start/--capacity' 'emulator start/--reset-rate' 'emulator start/--fail-rate' 'emulator start/--stall-rate' 'emulator start/--fail-after-commit-rate' 'emulator start/--echo-key-rate'
            return 0
        case 'emulator fixtures/--seed' 'emulator fixtures/--suppliers'
            return 0
        case 'api/-f' 'api/--field' 'api/--input'
            return 0
    end
    switch $flag
        case '-o' '--output' '--fields' '--query' '--profile' '--base-url' '--timeout' '--retries' '--max-pages' '--catalog'
            return 0
    end
    return 1
end

function __srs_path --description 'The srs command path before the cursor, e.g. "score calc" ("help ..." after srs help)'
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmdpath
    set -l help 0
    set -l leaf 0
    set -l skip 0
    for t in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $t
            case '--*=*'
                continue
            case -
            case '-*'
                if __srs_takes_value "$cmdpath" $t
                    set skip 1
                end
                continue
        end
        if test $leaf -eq 1
            continue
        end
        if test -z "$cmdpath" -a $help -eq 0 -a "$t" = help
            set help 1
            continue
        end
        set -l child (__srs_child "$cmdpath" $t)
        if test -n "$child"
            set -a cmdpath $child
        else
            set leaf 1
        end
    end
    if test $help -eq 1
        set -p cmdpath help
    end
    echo "$cmdpath"
end

function __srs_at --description 'Whether the srs command path is one of the arguments'
    set -l line (commandline -pc)
    if not set -q __srs_line; or test "$__srs_line" != "$line"
        set -g __srs_line "$line"
        set -g __srs_current (__srs_path)
    end
    contains -- "$__srs_current" $argv
end

function __srs_cache --argument-names name --description 'The entries of a value cache (code<TAB>name), found the way srs finds its data directory'
    set -l dir $HOME/.local/share/srs
    if test -n "$SRS_DATA_DIR"
        set dir $SRS_DATA_DIR
    else if string match -q -- '/*' "$XDG_DATA_HOME"
        set dir $XDG_DATA_HOME/srs
    end
    set -l file $dir/completion/$name.txt
    test -r $file; or return 0
    while read -l line
        set line (string replace -r '\r$' '' -- $line)
        string match -qr '^[^#\t]' -- $line; and printf '%s\n' $line
    end < $file
end

# No file names unless a file is expected.
complete -c srs -f

# Global options: everywhere.
complete -c srs -s o -l output -x -a 'table json ndjson csv' -d 'output format (default: table on a terminal, json otherwise)'
complete -c srs -l fields -x -d 'the fields to show (table and csv columns; json and ndjson keep only them): comma-separated, e.g. id,name; a dot reaches a nested field'
complete -c srs -l query -x -d 'filter and reshape the output with a JMESPath expression, e.g. "[?regionName==\'Europe\'].iso3Code"'
complete -c srs -l profile -x -d 'configuration profile to use (env SRS_PROFILE)'
complete -c srs -l base-url -x -d 'service base URL (env SRS_BASE_URL)'
complete -c srs -l sandbox -d 'run against an in-process emulator with local state; no account needed (env SRS_SANDBOX=1)'
complete -c srs -l timeout -x -d 'time allowed for each request attempt as a whole, e.g. 30s or 500ms (env SRS_TIMEOUT; default 30s)'
complete -c srs -l retries -x -d 'retries for safe requests after a transient failure (env SRS_RETRIES; default 3)'
complete -c srs -l max-pages -x -d 'a list with more pages than this is an error, not an endless wait (env SRS_MAX_PAGES; default 10000)'
complete -c srs -l insecure-http -d 'allow sending the API key over plain http to a non-loopback host'
complete -c srs -l csv-raw -d 'do not guard CSV cells against spreadsheet formula injection'
complete -c srs -l csv-bom -d 'start CSV output (and an import\'s --report file) with a UTF-8 byte order mark, so Excel opens non-ASCII names right (env SRS_CSV_BOM=1)'
complete -c srs -l wide -d 'tables show every column, even when they are wider than the terminal'
complete -c srs -s q -l quiet -d 'no notes or warnings that are not problems on stderr (errors still show)'
complete -c srs -l catalog -r -F -d 'the local supplier catalog file (env SRS_CATALOG; default DATA_DIR/catalog.db)'
complete -c srs -l no-catalog -d 'do not read or write the local supplier catalog (env SRS_CATALOG=off)'
complete -c srs -l no-color -d 'no colour (also when NO_COLOR is set, TERM=dumb or FORCE_COLOR=0; each stream is coloured only on a terminal)'
complete -c srs -l debug -d 'trace requests and show error detail on stderr (the API key is redacted)'
complete -c srs -s h -l help -d 'display help for command'

# srs
complete -c srs -n "__srs_at ''" -a 'supplier' -d 'Create, read, find and bulk-import suppliers'
complete -c srs -n "__srs_at ''" -a 'scorecards' -d 'List and read scorecards (weighted policy parameters)'
complete -c srs -n "__srs_at ''" -a 'score' -d 'Calculate, explain, recompute offline and gate on supplier scores (scale -3..+3)'
complete -c srs -n "__srs_at ''" -a 'emissions' -d 'Read a supplier\'s emission reports'
complete -c srs -n "__srs_at ''" -a 'news' -d 'Read a supplier\'s news events'
complete -c srs -n "__srs_at ''" -a 'data-entry' -d 'Read data entries (scored evidence about a supplier)'
complete -c srs -n "__srs_at ''" -a 'ref' -d 'Reference data: countries, industries, data sources, categories'
complete -c srs -n "__srs_at ''" -a 'auth' -d 'Store, show and remove the API key of a profile'
complete -c srs -n "__srs_at ''" -a 'emulator' -d 'A local emulator of the service: real HTTP on loopback, seeded data'
complete -c srs -n "__srs_at ''" -a 'completion' -d 'Print a shell completion script for bash, zsh or fish (commands, options, their values)'
complete -c srs -n "__srs_at ''" -a 'api' -d 'Call any endpoint with your key, retries and output formats: for what no subcommand covers yet'
complete -c srs -n "__srs_at ''" -a 'schema' -d 'Print the JSON Schema of a resource or of a command\'s JSON output, generated from the client\'s contract; without a name, list the names'
complete -c srs -n "__srs_at ''" -a help -d 'Show the help of a command, e.g. srs help score calc'
complete -c srs -n "__srs_at ''" -s V -l version -d 'print the version (before any command: srs --version)'
complete -c srs -n "__srs_at 'help'" -a 'supplier' -d 'Create, read, find and bulk-import suppliers'
complete -c srs -n "__srs_at 'help'" -a 'scorecards' -d 'List and read scorecards (weighted policy parameters)'
complete -c srs -n "__srs_at 'help'" -a 'score' -d 'Calculate, explain, recompute offline and gate on supplier scores (scale -3..+3)'
complete -c srs -n "__srs_at 'help'" -a 'emissions' -d 'Read a supplier\'s emission reports'
complete -c srs -n "__srs_at 'help'" -a 'news' -d 'Read a supplier\'s news events'
complete -c srs -n "__srs_at 'help'" -a 'data-entry' -d 'Read data entries (scored evidence about a supplier)'
complete -c srs -n "__srs_at 'help'" -a 'ref' -d 'Reference data: countries, industries, data sources, categories'
complete -c srs -n "__srs_at 'help'" -a 'auth' -d 'Store, show and remove the API key of a profile'
complete -c srs -n "__srs_at 'help'" -a 'emulator' -d 'A local emulator of the service: real HTTP on loopback, seeded data'
complete -c srs -n "__srs_at 'help'" -a 'completion' -d 'Print a shell completion script for bash, zsh or fish (commands, options, their values)'
complete -c srs -n "__srs_at 'help'" -a 'api' -d 'Call any endpoint with your key, retries and output formats: for what no subcommand covers yet'
complete -c srs -n "__srs_at 'help'" -a 'schema' -d 'Print the JSON Schema of a resource or of a command\'s JSON output, generated from the client\'s contract; without a name, list the names'

# srs supplier
complete -c srs -n "__srs_at 'supplier'" -a 'create' -d 'Create a supplier (validated locally before anything is sent)'
complete -c srs -n "__srs_at 'supplier'" -a 'get' -d 'Show one supplier\'s profile, by id or by your own customer id (looked up in the local catalog)'
complete -c srs -n "__srs_at 'supplier'" -a 'ls list' -d 'List the suppliers srs has created or read on this target (the local catalog; it knows nothing else)'
complete -c srs -n "__srs_at 'supplier'" -a 'find' -d 'Search the local catalog by name or customerSupplierId (substring, case- and accent-insensitive)'
complete -c srs -n "__srs_at 'supplier'" -a 'import' -d 'Create suppliers in bulk from a CSV export (any common delimiter and encoding); re-runs pick up where a run stopped'
complete -c srs -n "__srs_at 'help supplier'" -a 'create' -d 'Create a supplier (validated locally before anything is sent)'
complete -c srs -n "__srs_at 'help supplier'" -a 'get' -d 'Show one supplier\'s profile, by id or by your own customer id (looked up in the local catalog)'
complete -c srs -n "__srs_at 'help supplier'" -a 'ls list' -d 'List the suppliers srs has created or read on this target (the local catalog; it knows nothing else)'
complete -c srs -n "__srs_at 'help supplier'" -a 'find' -d 'Search the local catalog by name or customerSupplierId (substring, case- and accent-insensitive)'
complete -c srs -n "__srs_at 'help supplier'" -a 'import' -d 'Create suppliers in bulk from a CSV export (any common delimiter and encoding); re-runs pick up where a run stopped'

# srs supplier create
complete -c srs -n "__srs_at 'supplier create'" -l name -x -d 'supplier name, 1 to 255 characters'
complete -c srs -n "__srs_at 'supplier create'" -l country -x -a '(__srs_cache countries)' -d 'ISO 3166-1 alpha-3 country code, e.g. DEU'
complete -c srs -n "__srs_at 'supplier create'" -l website -x -d 'website: an http or https URL, e.g. https://example.com (srs refuses other schemes, such as mailto:)'
complete -c srs -n "__srs_at 'supplier create'" -l industry -x -a '(__srs_cache industries)' -d 'industry (sub-industry) code; repeatable, or several separated by ";"'
complete -c srs -n "__srs_at 'supplier create'" -l category -x -d 'category id (see srs ref categories); repeatable'
complete -c srs -n "__srs_at 'supplier create'" -l contact -x -d 'contact; the first one becomes the default contact; repeatable'
complete -c srs -n "__srs_at 'supplier create'" -l customer-id -x -d 'your own supplier reference, at most 255 characters'
complete -c srs -n "__srs_at 'supplier create'" -l json -r -F -d 'read the whole request body from a JSON file, or - for stdin'
complete -c srs -n "__srs_at 'supplier create'" -l allow-existing -d 'send it although the catalog knows its customer id as created on this target (default: exit 1, exists)'
complete -c srs -n "__srs_at 'supplier create'" -l retry-unknown -d 'send it although an earlier create of its customer id has an unknown outcome (risk: a second supplier)'

# srs supplier get
complete -c srs -n "__srs_at 'supplier get'" -l customer-id -x -d 'find the supplier id in the local catalog by customerSupplierId (exact, case-sensitive), then fetch it'

# srs supplier ls
complete -c srs -n "__srs_at 'supplier ls'" -l state -x -a 'created unknown' -d 'only entries in this state'

# srs supplier find
complete -c srs -n "__srs_at 'supplier find'" -l state -x -a 'created unknown' -d 'only entries in this state'

# srs supplier import
complete -c srs -n "__srs_at 'supplier import'" -l dry-run -d 'validate every row and print the summary; send nothing (no API key needed)'
complete -c srs -n "__srs_at 'supplier import'" -l concurrency -x -d 'pin the requests in flight at N, 1 to 256 (default: adaptive, see below)'
complete -c srs -n "__srs_at 'supplier import'" -l max-concurrency -x -d 'ceiling of the adaptive concurrency, 1 to 256 (default: 64)'
complete -c srs -n "__srs_at 'supplier import'" -l encoding -x -d 'file encoding: auto (BOM, else UTF-8 if valid, else Windows-1252), utf-8, utf-16le, utf-16be, windows-1252, ...'
complete -c srs -n "__srs_at 'supplier import'" -l delimiter -x -d 'field delimiter: , ; | or tab (default: detected from the header line)'
complete -c srs -n "__srs_at 'supplier import'" -l map -x -d 'map a column to a field (or to "ignore"), e.g. --map "Lieferant=name"; repeatable'
complete -c srs -n "__srs_at 'supplier import'" -l journal -r -F -d 'journal of sent rows and outcomes that makes re-runs safe; locked while a run uses it, bound to the file, its encoding, the service and the account (default: FILE.srs-journal; none for stdin)'
complete -c srs -n "__srs_at 'supplier import'" -l journal-fsync -d 'fsync the journal before each request (survives power loss; slower)'
complete -c srs -n "__srs_at 'supplier import'" -l retry-unknown -d 'send again the rows whose outcome is unknown (risk: a second supplier if the first attempt went through)'
complete -c srs -n "__srs_at 'supplier import'" -l allow-existing -d 'send rows whose customerSupplierId the catalog already knows as created on this target (default: state exists, not sent)'
complete -c srs -n "__srs_at 'supplier import'" -l report -r -F -d 'write a CSV with every row: line, state, supplierId, customerSupplierId, field, message'
complete -c srs -n "__srs_at 'supplier import'" -l failed -r -F -d 'write the failed and invalid rows in the input\'s own columns, ready to fix and import again'
complete -c srs -n "__srs_at 'supplier import'" -F

# srs scorecards
complete -c srs -n "__srs_at 'scorecards'" -a 'ls list' -d 'List scorecards, every page by default'
complete -c srs -n "__srs_at 'scorecards'" -a 'get' -d 'Show one scorecard and its weighted items'
complete -c srs -n "__srs_at 'help scorecards'" -a 'ls list' -d 'List scorecards, every page by default'
complete -c srs -n "__srs_at 'help scorecards'" -a 'get' -d 'Show one scorecard and its weighted items'

# srs scorecards ls
complete -c srs -n "__srs_at 'scorecards ls'" -l supplier -x -d 'only the scorecards that apply to this supplier (a ULID; exit 1 when the service does not know it, rather than an empty list)'
complete -c srs -n "__srs_at 'scorecards ls'" -l limit -x -d 'stop after N items (says on stderr when more exist)'
complete -c srs -n "__srs_at 'scorecards ls'" -l page -x -d 'fetch only this page'
complete -c srs -n "__srs_at 'scorecards ls'" -l per-page -x -d 'page size to request, 1 to 100'
complete -c srs -n "__srs_at 'scorecards ls'" -l all -d 'fetch every page (the default)'

# srs score
complete -c srs -n "__srs_at 'score'" -a 'calc' -d 'Calculate scores for any number of suppliers (batches of 100 sent concurrently, results in input order). Fails closed: exit 2 for ids that are not ULIDs (nothing sent); exit 1 after the results when a supplier is unknown to the service (one UNKNOWN line each on stderr)'
complete -c srs -n "__srs_at 'score'" -a 'explain' -d 'One supplier\'s score as a picture: bars on the -3..+3 scale per scorecard and parameter, with names, weights, entry counts and expiring evidence. Exit 2 for an id that is not a ULID, 1 for a supplier unknown to the service'
complete -c srs -n "__srs_at 'score'" -a 'report' -d 'Write a self-contained HTML report (inline CSS and SVG, no network): overall scores and their distribution, per-parameter breakdowns with names, expiring evidence, digest and verification'
complete -c srs -n "__srs_at 'score'" -a 'recompute' -d 'Recompute every aggregate of a saved bundle offline with the local model, beside the reported values (no network)'
complete -c srs -n "__srs_at 'score'" -a 'check' -d 'CI gate, failing closed: exit 3 when any supplier breaks a threshold, is unknown to the service or has no data; exit 2 for ids that are not ULIDs (scores from the service, or --from a saved bundle, verified first). Appends a Markdown summary to $GITHUB_STEP_SUMMARY when set'
complete -c srs -n "__srs_at 'help score'" -a 'calc' -d 'Calculate scores for any number of suppliers (batches of 100 sent concurrently, results in input order). Fails closed: exit 2 for ids that are not ULIDs (nothing sent); exit 1 after the results when a supplier is unknown to the service (one UNKNOWN line each on stderr)'
complete -c srs -n "__srs_at 'help score'" -a 'explain' -d 'One supplier\'s score as a picture: bars on the -3..+3 scale per scorecard and parameter, with names, weights, entry counts and expiring evidence. Exit 2 for an id that is not a ULID, 1 for a supplier unknown to the service'
complete -c srs -n "__srs_at 'help score'" -a 'report' -d 'Write a self-contained HTML report (inline CSS and SVG, no network): overall scores and their distribution, per-parameter breakdowns with names, expiring evidence, digest and verification'
complete -c srs -n "__srs_at 'help score'" -a 'recompute' -d 'Recompute every aggregate of a saved bundle offline with the local model, beside the reported values (no network)'
complete -c srs -n "__srs_at 'help score'" -a 'check' -d 'CI gate, failing closed: exit 3 when any supplier breaks a threshold, is unknown to the service or has no data; exit 2 for ids that are not ULIDs (scores from the service, or --from a saved bundle, verified first). Appends a Markdown summary to $GITHUB_STEP_SUMMARY when set'

# srs score calc
complete -c srs -n "__srs_at 'score calc'" -l ids-file -r -F -d 'more supplier ids, one per line; blank lines and # comments ignored (- for stdin)'
complete -c srs -n "__srs_at 'score calc'" -l policy-parameter -x -d 'only this policy parameter; repeatable'
complete -c srs -n "__srs_at 'score calc'" -l data-source -x -d 'only this data source; repeatable'
complete -c srs -n "__srs_at 'score calc'" -l exclude-zero-values -d 'leave entries whose value is 0 out of the calculation'
complete -c srs -n "__srs_at 'score calc'" -l breakdown -x -a 'sources parameters entries' -d 'rows per data source, policy parameter or data entry instead of one per supplier'
complete -c srs -n "__srs_at 'score calc'" -l save -r -F -d 'write an evidence bundle (requests, results, scorecards, asOf, model version, digest; streamed, one record per line) for offline recompute; its directory must exist (checked before anything is sent)'
complete -c srs -n "__srs_at 'score calc'" -l concurrency -x -d 'batches in flight'

# srs score explain
complete -c srs -n "__srs_at 'score explain'" -l policy-parameter -x -d 'only this policy parameter; repeatable'
complete -c srs -n "__srs_at 'score explain'" -l data-source -x -d 'only this data source; repeatable'
complete -c srs -n "__srs_at 'score explain'" -l exclude-zero-values -d 'leave entries whose value is 0 out of the calculation'
complete -c srs -n "__srs_at 'score explain'" -l from -r -F -d 'explain from a saved bundle (score calc --save) instead of calling the service'
complete -c srs -n "__srs_at 'score explain'" -l expiring-within -x -d 'flag evidence that expires within this many days (default 90)'
complete -c srs -n "__srs_at 'score explain'" -l ascii -d 'draw with ASCII characters (the default when the locale is not UTF-8)'

# srs score report
complete -c srs -n "__srs_at 'score report'" -l ids-file -r -F -d 'more supplier ids, one per line; blank lines and # comments ignored (- for stdin)'
complete -c srs -n "__srs_at 'score report'" -l policy-parameter -x -d 'only this policy parameter; repeatable'
complete -c srs -n "__srs_at 'score report'" -l data-source -x -d 'only this data source; repeatable'
complete -c srs -n "__srs_at 'score report'" -l exclude-zero-values -d 'leave entries whose value is 0 out of the calculation'
complete -c srs -n "__srs_at 'score report'" -l html -r -F -d 'the HTML file to write (- for stdout); its directory must exist (checked before anything is sent)'
complete -c srs -n "__srs_at 'score report'" -l title -x -d 'the report\'s title'
complete -c srs -n "__srs_at 'score report'" -l expiring-within -x -d 'list evidence that expires within this many days (default 90)'
complete -c srs -n "__srs_at 'score report'" -l tolerance -x -d 'largest accepted difference when recomputing the values offline'
complete -c srs -n "__srs_at 'score report'" -l verify -d 'the default: after writing the report, exit 3 unless the evidence is intact (digest), from this model, complete, without conflicts, and every value agrees'
complete -c srs -n "__srs_at 'score report'" -l no-verify -d 'write the report and exit 0 even when the verification finds something (the report and stderr still say what)'
complete -c srs -n "__srs_at 'score report'" -l accept-model -x -d 'with a bundle: accept one computed with this other model version'
complete -c srs -n "__srs_at 'score report'" -l allow-undigested -d 'with a bundle: accept a format-1 bundle (no digest)'
complete -c srs -n "__srs_at 'score report'" -l concurrency -x -d 'batches in flight (with ids)'
complete -c srs -n "__srs_at 'score report'" -F

# srs score recompute
complete -c srs -n "__srs_at 'score recompute'" -l scorecards -r -F -d 'scorecards for a raw response: {supplierId: [scorecards]}, or one JSON array that applies to every supplier (srs scorecards ls --supplier ID -o json; all scorecards, without --supplier, apply to no one supplier)'
complete -c srs -n "__srs_at 'score recompute'" -l verify -d 'exit 3 unless the bundle is intact (digest), from this model, complete, without conflicting entries, and every value agrees within the tolerance; an altered, undigested or other-model file stops before anything is recomputed, and the summary starts with verified: or NOT VERIFIED:'
complete -c srs -n "__srs_at 'score recompute'" -l tolerance -x -d 'largest accepted difference'
complete -c srs -n "__srs_at 'score recompute'" -l accept-model -x -d 'accept a bundle computed with this other model version'
complete -c srs -n "__srs_at 'score recompute'" -l allow-undigested -d 'accept evidence without a digest (format-1 bundles, raw responses) under --verify'
complete -c srs -n "__srs_at 'score recompute'" -l only-differences -d 'print only the values that differ'
complete -c srs -n "__srs_at 'score recompute'" -l as-of -x -d 'recompute as of this date (YYYY-MM-DD) instead of the bundle\'s'
complete -c srs -n "__srs_at 'score recompute'" -l mode -x -a 'parameters scorecards' -d 'how parameter scores combine (default: the bundle\'s, else parameters)'
complete -c srs -n "__srs_at 'score recompute'" -l claim-weight -x -d 'weight of self-declared claims (default: the bundle\'s, else 0.5)'
complete -c srs -n "__srs_at 'score recompute'" -F

# srs score check
complete -c srs -n "__srs_at 'score check'" -l ids-file -r -F -d 'more supplier ids, one per line; blank lines and # comments ignored (- for stdin)'
complete -c srs -n "__srs_at 'score check'" -l policy-parameter -x -d 'only this policy parameter; repeatable'
complete -c srs -n "__srs_at 'score check'" -l data-source -x -d 'only this data source; repeatable'
complete -c srs -n "__srs_at 'score check'" -l exclude-zero-values -d 'leave entries whose value is 0 out of the calculation'
complete -c srs -n "__srs_at 'score check'" -l from -r -F -d 'check a saved bundle offline instead of calling the service (verified first, as score recompute --verify does)'
complete -c srs -n "__srs_at 'score check'" -l no-verify -d 'with --from: gate on the bundle\'s values without verifying it'
complete -c srs -n "__srs_at 'score check'" -l accept-model -x -d 'with --from or --baseline: accept a bundle computed with this other model version'
complete -c srs -n "__srs_at 'score check'" -l allow-undigested -d 'with --from or --baseline: accept evidence without a digest (format-1 bundles, raw responses)'
complete -c srs -n "__srs_at 'score check'" -l min -x -d 'minimum overall score'
complete -c srs -n "__srs_at 'score check'" -l min-parameter -x -d 'minimum score of one policy parameter; repeatable'
complete -c srs -n "__srs_at 'score check'" -l max-risk -x -d 'highest acceptable risk level (Low, Medium, High)'
complete -c srs -n "__srs_at 'score check'" -l expiring-within -x -d 'fail when counting evidence expires within this many days from today (or has expired)'
complete -c srs -n "__srs_at 'score check'" -l baseline -r -F -d 'a saved bundle to compare against (with --max-drop), verified first as --from is; suppliers not in it are reported new'
complete -c srs -n "__srs_at 'score check'" -l max-drop -x -d 'largest accepted fall of the overall score since --baseline (a fall to no data is a drop)'
complete -c srs -n "__srs_at 'score check'" -l baseline-strict -d 'fail when a supplier of the baseline is not in this run (otherwise a warning)'
complete -c srs -n "__srs_at 'score check'" -l allow-no-data -d 'a supplier, parameter or risk level without data passes as "no data" instead of failing'
complete -c srs -n "__srs_at 'score check'" -l require-score -d 'accepted for old pipelines: failing on no data is now the default'
complete -c srs -n "__srs_at 'score check'" -l junit -r -F -d 'also write a JUnit XML report (its directory must exist; checked before anything is sent)'

# srs emissions
complete -c srs -n "__srs_at 'emissions'" -a 'ls list' -d 'List a supplier\'s emission reports (the service does not page this list); a table ends with bars of the totals per year'
complete -c srs -n "__srs_at 'help emissions'" -a 'ls list' -d 'List a supplier\'s emission reports (the service does not page this list); a table ends with bars of the totals per year'

# srs emissions ls
complete -c srs -n "__srs_at 'emissions ls'" -l ascii -d 'draw the totals bars with ASCII characters (the default when the locale is not UTF-8)'

# srs news
complete -c srs -n "__srs_at 'news'" -a 'ls list' -d 'List a supplier\'s news events with their articles, every page by default'
complete -c srs -n "__srs_at 'help news'" -a 'ls list' -d 'List a supplier\'s news events with their articles, every page by default'

# srs news ls
complete -c srs -n "__srs_at 'news ls'" -l data-entry -x -d 'only the news events of this data entry'
complete -c srs -n "__srs_at 'news ls'" -l limit -x -d 'stop after N items (says on stderr when more exist)'
complete -c srs -n "__srs_at 'news ls'" -l page -x -d 'fetch only this page'
complete -c srs -n "__srs_at 'news ls'" -l per-page -x -d 'page size to request, 1 to 100'
complete -c srs -n "__srs_at 'news ls'" -l all -d 'fetch every page (the default)'

# srs data-entry
complete -c srs -n "__srs_at 'data-entry'" -a 'get' -d 'Show one data entry with its parameter scores and news event'
complete -c srs -n "__srs_at 'help data-entry'" -a 'get' -d 'Show one data entry with its parameter scores and news event'

# srs ref
complete -c srs -n "__srs_at 'ref'" -a 'countries' -d 'List ISO 3166-1 countries'
complete -c srs -n "__srs_at 'ref'" -a 'industries' -d 'List the industry classification (sub-industries by default)'
complete -c srs -n "__srs_at 'ref'" -a 'sources' -d 'List data sources'
complete -c srs -n "__srs_at 'ref'" -a 'categories' -d 'List supplier categories (ids for --category)'
complete -c srs -n "__srs_at 'help ref'" -a 'countries' -d 'List ISO 3166-1 countries'
complete -c srs -n "__srs_at 'help ref'" -a 'industries' -d 'List the industry classification (sub-industries by default)'
complete -c srs -n "__srs_at 'help ref'" -a 'sources' -d 'List data sources'
complete -c srs -n "__srs_at 'help ref'" -a 'categories' -d 'List supplier categories (ids for --category)'

# srs ref countries
complete -c srs -n "__srs_at 'ref countries'" -l limit -x -d 'stop after N items (says on stderr when more exist)'
complete -c srs -n "__srs_at 'ref countries'" -l page -x -d 'fetch only this page'
complete -c srs -n "__srs_at 'ref countries'" -l per-page -x -d 'page size to request, 1 to 100'
complete -c srs -n "__srs_at 'ref countries'" -l all -d 'fetch every page (the default)'

# srs ref industries
complete -c srs -n "__srs_at 'ref industries'" -l all-levels -d 'every level (sector, industry group, industry, sub-industry), not just sub-industries'
complete -c srs -n "__srs_at 'ref industries'" -l limit -x -d 'stop after N items (says on stderr when more exist)'
complete -c srs -n "__srs_at 'ref industries'" -l page -x -d 'fetch only this page'
complete -c srs -n "__srs_at 'ref industries'" -l per-page -x -d 'page size to request, 1 to 100'
complete -c srs -n "__srs_at 'ref industries'" -l all -d 'fetch every page (the default)'

# srs ref sources
complete -c srs -n "__srs_at 'ref sources'" -l limit -x -d 'stop after N items (says on stderr when more exist)'
complete -c srs -n "__srs_at 'ref sources'" -l page -x -d 'fetch only this page'
complete -c srs -n "__srs_at 'ref sources'" -l per-page -x -d 'page size to request, 1 to 100'
complete -c srs -n "__srs_at 'ref sources'" -l all -d 'fetch every page (the default)'

# srs ref categories
complete -c srs -n "__srs_at 'ref categories'" -l limit -x -d 'stop after N items (says on stderr when more exist)'
complete -c srs -n "__srs_at 'ref categories'" -l page -x -d 'fetch only this page'
complete -c srs -n "__srs_at 'ref categories'" -l per-page -x -d 'page size to request, 1 to 100'
complete -c srs -n "__srs_at 'ref categories'" -l all -d 'fetch every page (the default)'

# srs auth
complete -c srs -n "__srs_at 'auth'" -a 'login' -d 'Check an API key with one cheap request, then store it in a profile (config file mode 0600)'
complete -c srs -n "__srs_at 'auth'" -a 'switch' -d 'Make a stored profile the active one (the one commands use without --profile or SRS_PROFILE)'
complete -c srs -n "__srs_at 'auth'" -a 'status' -d 'Show the profile in use, its base URL, where the key comes from (last 4 characters only), and every stored profile'
complete -c srs -n "__srs_at 'auth'" -a 'logout' -d 'Remove a profile\'s stored API key'
complete -c srs -n "__srs_at 'help auth'" -a 'login' -d 'Check an API key with one cheap request, then store it in a profile (config file mode 0600)'
complete -c srs -n "__srs_at 'help auth'" -a 'switch' -d 'Make a stored profile the active one (the one commands use without --profile or SRS_PROFILE)'
complete -c srs -n "__srs_at 'help auth'" -a 'status' -d 'Show the profile in use, its base URL, where the key comes from (last 4 characters only), and every stored profile'
complete -c srs -n "__srs_at 'help auth'" -a 'logout' -d 'Remove a profile\'s stored API key'

# srs auth login
complete -c srs -n "__srs_at 'auth login'" -l with-key -d 'read the key from stdin instead of prompting (for scripts)'
complete -c srs -n "__srs_at 'auth login'" -l activate -d 'also make this profile the active one (otherwise the active profile stays as it is)'

# srs emulator
complete -c srs -n "__srs_at 'emulator'" -a 'start' -d 'Start the emulator on 127.0.0.1 and serve until Ctrl-C; prints its base URL'
complete -c srs -n "__srs_at 'emulator'" -a 'fixtures' -d 'Print the seeded ids (suppliers, scorecards, data entries, parameters, sources) as one JSON document (-o json only)'
complete -c srs -n "__srs_at 'help emulator'" -a 'start' -d 'Start the emulator on 127.0.0.1 and serve until Ctrl-C; prints its base URL'
complete -c srs -n "__srs_at 'help emulator'" -a 'fixtures' -d 'Print the seeded ids (suppliers, scorecards, data entries, parameters, sources) as one JSON document (-o json only)'

# srs emulator start
complete -c srs -n "__srs_at 'emulator start'" -l port -x -d 'port to listen on; 0 picks a free one'
complete -c srs -n "__srs_at 'emulator start'" -l api-key -x -d 'key clients must send (default: SRS_EMULATOR_API_KEY, else generated and printed)'
complete -c srs -n "__srs_at 'emulator start'" -l seed -x -d 'seed of the deterministic dataset (0 to 4294967295)'
complete -c srs -n "__srs_at 'emulator start'" -l suppliers -x -d 'number of seeded suppliers (default 150)'
complete -c srs -n "__srs_at 'emulator start'" -l state -r -F -d 'keep created suppliers in this SQLite file across restarts (each committed before its 201; an older JSON state file is migrated)'
complete -c srs -n "__srs_at 'emulator start'" -l last-page -x -a 'null absent zero same past' -d 'what nextPage holds on the last page (default absent; null with --nulls)'
complete -c srs -n "__srs_at 'emulator start'" -l nulls -d 'answer "no data" with null (averageScore, score values, riskLevel) instead of leaving the field out, as earlier versions did; not spec-strict, to test clients'
complete -c srs -n "__srs_at 'emulator start'" -l log -d 'log each request (method, path, status, time) and each injected fault to stderr'
complete -c srs -n "__srs_at 'emulator start'" -l admin -d 'also serve GET /_emulator/suppliers (same x-api-key): every stored supplier with its customerSupplierId (with --state: every one in the file, whichever emulator or sandbox command created it)'
complete -c srs -n "__srs_at 'emulator start'" -l latency -x -d 'delay before processing each /v1 request without an earlier fault: MS, or MS-MS for uniform in a range (default 0)'
complete -c srs -n "__srs_at 'emulator start'" -l rate-limit -x -d 'token bucket of N requests per second, burst N; above it 429 with Retry-After (default no limit)'
complete -c srs -n "__srs_at 'emulator start'" -l capacity -x -d 'process at most N /v1 requests at once (latency included); N more wait in line, the rest get 503 with Retry-After: 1 (default no bound)'
complete -c srs -n "__srs_at 'emulator start'" -l reset-rate -x -d 'share of /v1 requests whose connection is reset before processing, 0..1 (default 0)'
complete -c srs -n "__srs_at 'emulator start'" -l fail-rate -x -d 'share of /v1 requests answered 500/502/503 before processing (nothing stored), 0..1 (default 0)'
complete -c srs -n "__srs_at 'emulator start'" -l stall-rate -x -d 'share of /v1 requests never answered (ended after 5 minutes or at shutdown), 0..1 (default 0)'
complete -c srs -n "__srs_at 'emulator start'" -l fail-after-commit-rate -x -d 'share of POST /v1/suppliers stored, then dropped without an answer, 0..1 (default 0)'
complete -c srs -n "__srs_at 'emulator start'" -l echo-key-rate -x -d 'share of POST /v1/suppliers answered 400 with the API key quoted in the message (nothing stored), 0..1 (default 0)'

# srs emulator fixtures
complete -c srs -n "__srs_at 'emulator fixtures'" -l seed -x -d 'seed of the dataset, 0 to 4294967295 (default: the one the sandbox uses)'
complete -c srs -n "__srs_at 'emulator fixtures'" -l suppliers -x -d 'number of seeded suppliers (default 150)'

# srs completion
complete -c srs -n "__srs_at 'completion'" -a 'bash zsh fish'

# srs api
complete -c srs -n "__srs_at 'api'" -s f -l field -x -d 'GET: a query parameter; POST: a top-level body field, the value parsed as JSON when it is JSON (42, true, ["a"]), else a string; repeatable'
complete -c srs -n "__srs_at 'api'" -l input -r -F -d 'POST: the whole JSON body from a file, or - for stdin (not with --field)'
complete -c srs -n "__srs_at 'api'" -l paginate -d 'GET: follow page/perPage through every page and print the items of all pages as one list'
