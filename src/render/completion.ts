// The shell completion scripts printed by `kb completion SHELL`. Each is a
// thin adapter: it hands the words typed so far to `kb __complete -- ...`
// (src/cli/commands/complete.ts), which answers with candidates one per line,
// optionally led by `:files` / `:dirs` to ask for the shell's own path
// completion. Commands, flags, topic IDs and subject slugs therefore always
// come from the kb being completed and the workspace it would use.

const BASH = `# bash completion for kb (printed by \`kb completion bash\`).
# This shell:        source <(kb completion bash)
# Every new shell:   kb completion bash > ~/.local/share/bash-completion/completions/kb
#                    (or add the first line to ~/.bashrc)

_kb() {
    local cur=\${COMP_WORDS[COMP_CWORD]} line directive= c
    local -a found=()
    while IFS= read -r line; do
        if [[ -z $directive && \${#found[@]} -eq 0 && ( $line == :files || $line == :dirs ) ]]; then
            directive=$line
            continue
        fi
        found+=("$line")
    done < <(command "\${COMP_WORDS[0]}" __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
    COMPREPLY=()
    # \`--flag=\` and \`--flag=value\`: bash replaces only what follows the \`=\`.
    if [[ $cur == = ]]; then cur=; fi
    for c in "\${found[@]}"; do
        if [[ $c == --*=* && ( $cur != --* || $cur != *=* ) ]]; then c=\${c#*=}; fi
        COMPREPLY+=("$(printf '%q' "$c")")
    done
    case $directive in
        :dirs)
            compopt -o filenames 2>/dev/null
            mapfile -t -O \${#COMPREPLY[@]} COMPREPLY < <(compgen -d -- "$cur")
            ;;
        :files)
            compopt -o filenames 2>/dev/null
            mapfile -t -O \${#COMPREPLY[@]} COMPREPLY < <(compgen -f -- "$cur")
            ;;
    esac
    return 0
}

complete -F _kb kb
`;

const ZSH = `#compdef kb
# zsh completion for kb (printed by \`kb completion zsh\`).
# This shell (after compinit):  source <(kb completion zsh)
# Every new shell:              kb completion zsh > "\${fpath[1]}/_kb"
#                               (any directory on $fpath; then restart zsh)

_kb() {
    local line directive
    local -a found
    for line in "\${(@f)$(command \${words[1]} __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
        [[ -z $line ]] && continue
        if [[ -z $directive && \${#found} -eq 0 && ( $line == :files || $line == :dirs ) ]]; then
            directive=$line
            continue
        fi
        found+=("$line")
    done
    local ret=1
    (( \${#found} )) && compadd -- "\${found[@]}" && ret=0
    case $directive in
        :dirs) _files -/ && ret=0 ;;
        :files) _files && ret=0 ;;
    esac
    return ret
}

if [[ \${funcstack[1]} == _kb ]]; then
    # Autoloaded from $fpath: this file is the body of _kb.
    _kb "$@"
elif (( \${+functions[compdef]} )); then
    compdef _kb kb
else
    print -u2 "kb completion: run 'autoload -Uz compinit && compinit' before loading this script"
fi
`;

const FISH = `# fish completion for kb (printed by \`kb completion fish\`).
# This shell:        kb completion fish | source
# Every new shell:   kb completion fish > ~/.config/fish/completions/kb.fish

function __kb_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l lines (command $tokens[1] __complete -- $tokens[2..-1] $current 2>/dev/null)
    if set -q lines[1]
        switch $lines[1]
            case :files
                set -e lines[1]
                __fish_complete_path $current
            case :dirs
                set -e lines[1]
                __fish_complete_directories $current
        end
    end
    printf '%s\\n' $lines
end

complete -c kb -f -a '(__kb_complete)'
`;

// PowerShell (Windows PowerShell 5.1 and PowerShell 7): a native-command
// completer. The words are the command's elements up to the cursor (string
// constants by value, so a quoted word arrives unquoted), and an empty word
// when the cursor follows a space; a candidate that PowerShell would split
// is quoted. `:files` and `:dirs` add PowerShell's own file names. Not run
// here (no PowerShell on the machines that test kb): tests/integrations/
// completion.test.ts runs it where pwsh is installed.
const POWERSHELL = `# PowerShell completion for kb (printed by \`kb completion powershell\`).
# This session:       kb completion powershell | Out-String | Invoke-Expression
# Every new session:  add that line to your profile (notepad $PROFILE)

Register-ArgumentCompleter -Native -CommandName kb, kb.exe -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @(foreach ($e in $commandAst.CommandElements) {
        if ($e.Extent.StartOffset -ge $cursorPosition) { break }
        if ($e -is [System.Management.Automation.Language.StringConstantExpressionAst]) { $e.Value } else { $e.Extent.Text }
    })
    if ($wordToComplete -eq '') { $words += '' }
    # Before PowerShell 7.3 (and with Legacy argument passing) an empty
    # argument is dropped on its way to a program: it goes as "" instead.
    $legacy = $PSVersionTable.PSVersion -lt [version]'7.3' -or $PSNativeCommandArgumentPassing -eq 'Legacy'
    $rest = @($words | Select-Object -Skip 1 | ForEach-Object { if ($legacy -and $_ -eq '') { '""' } else { $_ } })
    $lines = @(& $words[0] __complete -- @rest 2>$null)
    $directive = $null
    if ($lines.Count -gt 0 -and ($lines[0] -eq ':files' -or $lines[0] -eq ':dirs')) {
        $directive = $lines[0]
        $lines = @($lines | Select-Object -Skip 1)
    }
    foreach ($c in $lines) {
        if ($c -eq '') { continue }
        $text = if ($c -match '[\\s''"\`$(){}@;,|&<>#]') { "'" + ($c -replace "'", "''") + "'" } else { $c }
        [System.Management.Automation.CompletionResult]::new($text, $c, 'ParameterValue', $c)
    }
    if ($directive) {
        foreach ($f in [System.Management.Automation.CompletionCompleters]::CompleteFilename($wordToComplete)) {
            if ($directive -eq ':files' -or $f.ResultType -eq 'ProviderContainer') { $f }
        }
    }
}
`;

export const SCRIPTS = { bash: BASH, zsh: ZSH, fish: FISH, powershell: POWERSHELL } as const;
export type Shell = keyof typeof SCRIPTS;
