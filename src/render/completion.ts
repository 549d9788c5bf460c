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

export const SCRIPTS = { bash: BASH, zsh: ZSH, fish: FISH } as const;
export type Shell = keyof typeof SCRIPTS;
