{{- define "reranker.labels" -}}
app: reranker
{{- end }}
