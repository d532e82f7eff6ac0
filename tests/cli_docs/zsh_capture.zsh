# zsh -f zsh_capture.zsh FPATH_DIR LINE: the candidates zsh's completion system offers for LINE
# (the words after it, cursor at the end), one per line. An interactive zsh in a zpty loads the
# completion from FPATH_DIR with compinit, completes LINE with complete-word, and a compadd
# wrapper prints what each compadd call adds (between \x02 and \x03).
zmodload zsh/zpty || exit 2
zpty z zsh -f -i || exit 2
zpty -w z "PROMPT='R%(?.D.D)Y>'; LISTMAX=100000; fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () { local -a __hits; builtin compadd -O __hits "$@"; (( $#__hits )) && print -rn -- $'"'"'\x02'"'"'${^__hits}$'"'"'\x03'"'"'; builtin compadd "$@" }'
zpty -w z 'zle -C __complete complete-word _main_complete; bindkey "^Xc" __complete'
zpty -w z "print -r -- BEGIN\$((6*7))"
# type the line only once zle waits at the prompt (RDY>, which the typed text does not hold)
zpty -r z out '*BEGIN42*RDY>*' || exit 2
zpty -n -w z "$2"$'\C-Xc'
zpty -w z $'\C-U'"print -r -- END\$((6*7))"
zpty -r z out '*END42*' || exit 2
zpty -d z
for w in ${(ps:\x03:)out}; do
	[[ $w == *$'\x02'* ]] && print -r -- ${w##*$'\x02'}
done | sort -u
