package index

import (
	"path"
	"strings"

	"lwr/analyzer"
	"lwr/analyzer/lazyre"
)

// DocKind is what kind of document a file is: a rule or procedure states
// what holds; a form, template or example shows how a thing is filled in;
// an FAQ, minutes or a translation restate or discuss it. An example's
// value is never the answer to what the rule is.
type DocKind string

// The kinds of document.
const (
	KindRule        DocKind = ""            // rules, procedures, guides (the default)
	KindForm        DocKind = "form"        // 様式, 申請書, 記入例, 記入要領, テンプレート, ISSUE_TEMPLATE
	KindExample     DocKind = "example"     // sample, example, サンプル, 例
	KindFAQ         DocKind = "faq"         // FAQ, よくある質問, Q&A
	KindMinutes     DocKind = "minutes"     // 議事録, minutes, 振り返り, retrospectives, feedback
	KindTranslation DocKind = "translation" // 翻訳, translation
)

// Label is the kind's Japanese name, "" for a rule.
func (k DocKind) Label() string {
	switch k {
	case KindForm:
		return "様式・記入例"
	case KindExample:
		return "例"
	case KindFAQ:
		return "FAQ"
	case KindMinutes:
		return "議事録・記録"
	case KindTranslation:
		return "翻訳"
	}
	return ""
}

var (
	kindForm        = lazyre.New(`様式|書式|記入例|記入要領|記入方法|申請書|届出書|テンプレート|ひな形|雛形|template|issue_template|pull_request_template|フォーム`)
	kindExample     = lazyre.New(`(^|[^a-z])(sample|samples|example|examples)([^a-z]|$)|サンプル|記載例|^例[：:]|[（(]例[）)]`)
	kindFAQ         = lazyre.New(`(^|[^a-z])faqs?([^a-z]|$)|よくある質問|よくあるご質問|q&a|ｑ＆ａ|質問集|問い合わせ`)
	kindMinutes     = lazyre.New(`議事録|議事メモ|会議録|minutes|retrospective|振り返り|ふりかえり|feedback|フィードバック|報告書|日報|週報`)
	kindTranslation = lazyre.New(`翻訳|translation|(^|/)en(/|$)|\.en\.`)
)

// kindFolders are folder names that say what their files are.
var kindFolders = map[string]DocKind{"sample": KindExample, "samples": KindExample, "example": KindExample, "examples": KindExample, "サンプル": KindExample,
	"template": KindForm, "templates": KindForm, "issue_template": KindForm, "テンプレート": KindForm, "様式": KindForm, "書式": KindForm,
	"faq": KindFAQ, "minutes": KindMinutes, "議事録": KindMinutes, "retrospectives": KindMinutes, "translations": KindTranslation}

// KindOf tells the kind of a document from its file name, title and the
// names of its folders (a folder named sample, 様式 or 議事録; not one whose
// name only holds such a word: Sample_Project).
func KindOf(rel, title string) DocKind {
	base := analyzer.Fold(path.Base(rel) + "\n" + title)
	switch {
	case kindForm.MatchString(base):
		return KindForm
	case kindFAQ.MatchString(base):
		return KindFAQ
	case kindMinutes.MatchString(base):
		return KindMinutes
	case kindExample.MatchString(base):
		return KindExample
	case kindTranslation.MatchString(base):
		return KindTranslation
	}
	dirs := strings.Split(analyzer.Fold(path.Dir(rel)), "/")
	for i := len(dirs) - 1; i >= 0; i-- {
		if k, ok := kindFolders[dirs[i]]; ok {
			return k
		}
	}
	return KindRule
}

// fillGuide names a guide to filling a form in (記入方法, 記入要領,
// 書き方): a procedure, though KindOf counts it with the forms.
var fillGuide = lazyre.New(`記入方法|記入要領|書き方|手順`)

// BlankForm reports whether a document is a form itself (様式, 申請書,
// テンプレート, ISSUE_TEMPLATE), the blank a request is made on, not a
// guide to filling one in.
func BlankForm(rel, title string) bool {
	return KindOf(rel, title) == KindForm && !fillGuide.MatchString(analyzer.Fold(path.Base(rel)+"\n"+title))
}

// AsksAbout reports whether a question is itself about documents of the
// kind (記入例の書き方, 議事録では何が決まった, 設計書サンプルの…): then
// they answer it as any rule does.
func (k DocKind) AsksAbout(question string) bool {
	if k == KindRule {
		return true
	}
	f := analyzer.Fold(question)
	switch k {
	case KindForm:
		return kindForm.MatchString(f) || strings.Contains(f, "書き方") || strings.Contains(f, "記入")
	case KindExample:
		return kindExample.MatchString(f) || strings.Contains(f, "例")
	case KindFAQ:
		return kindFAQ.MatchString(f)
	case KindMinutes:
		return kindMinutes.MatchString(f) || strings.Contains(f, "会議") || strings.Contains(f, "決ま") || strings.Contains(f, "だった") || strings.Contains(f, "開催")
	case KindTranslation:
		return kindTranslation.MatchString(f)
	}
	return false
}

// exampleLine is a line that gives an example, not the rule: （例）宿泊費
// 5000円, 記入例：, e.g.
var exampleLine = lazyre.New(`^\s*(?:[-*・]\s*)?(?:[（(【\[]?(?:例|記入例|入力例|記載例|例示|サンプル)[）)】\]]?\s*[：:]?|e\.g\.|例えば|たとえば)`)
