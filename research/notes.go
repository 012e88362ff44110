package research

import (
	"strings"

	"lwr/analyzer/edition"
	"lwr/policy"
	"lwr/research/report"
)

// notes fills the preferred-source, currentness, 未確認 and 要検証 notes.
func notes(c *Conclusion, srcs []source, r *Report) {
	for _, s := range srcs {
		if !s.local() {
			w := s.web
			if !w.Official() && w.Entry.Trust < 2 {
				c.Unverified = append(c.Unverified, Note{Ref: s.ref, Text: "一般Webの情報（公式・複数エンジンの裏付けなし）: 未確認"})
			}
			continue
		}
		h := s.hit
		if h.Ext.Preferred != nil {
			t := "優先資料"
			if h.Ext.Preferred.Label != "" {
				t += "（指定: " + h.Ext.Preferred.Label + "）"
			}
			if len(h.Ext.Preferred.Supersedes) > 0 {
				t += "。旧版: " + strings.Join(h.Ext.Preferred.Supersedes, "、")
			}
			c.Preferences = append(c.Preferences, Note{Ref: s.ref, Text: t})
		}
		for _, rel := range h.Ext.Relations {
			switch rel.Kind {
			case policy.SupersededBy:
				c.Preferences = append(c.Preferences, Note{Ref: s.ref, Text: "旧版（優先: " + rel.Path + "）。優先資料の記載を先に確認し、この版の記載と混ぜない"})
			case policy.PossiblyRelated:
				c.Preferences = append(c.Preferences, Note{Ref: s.ref, Text: "関連の可能性（版関係不明: " + rel.Path + "）。同一文書の版とは断定しない"})
				c.ToVerify = append(c.ToVerify, Note{Ref: s.ref, Text: "版関係不明の関連資料あり（" + rel.Path + "）: 要検証"})
			}
		}
		if h.Edition() == edition.Unknown {
			c.Preferences = append(c.Preferences, Note{Ref: s.ref, Text: "版不明（本文に版・日付の記載なし。更新日時は版の根拠にしない）"})
		}
		for _, rec := range h.Ext.Currentness {
			c.Currentness = append(c.Currentness, CurrentnessNote{Ref: s.ref, Path: h.Path, Record: rec})
			if rec.Unverified != "" {
				c.Unverified = append(c.Unverified, Note{Ref: s.ref, Text: "未確認（記録 " + rec.ID + "）: " + rec.Unverified})
			}
			if rec.Stale {
				c.ToVerify = append(c.ToVerify, Note{Ref: s.ref, Text: "現行性確認記録 " + rec.ID + " の照合後に資料が変更された: 要検証"})
			}
			if rec.Action == policy.CheckConditions {
				c.ToVerify = append(c.ToVerify, Note{Ref: s.ref, Text: "記録 " + rec.ID + ": 適用条件と回答時点の改正を要検証"})
			}
		}
	}
	for _, cf := range c.Conflicts {
		if cf.Winner < 0 {
			c.ToVerify = append(c.ToVerify, Note{Ref: cf.Sides[0].Ref + "/" + cf.Sides[1].Ref, Text: "矛盾が未解消（" + factKindLabels[cf.Kind] + "）: 要検証"})
		}
	}
	if r.Web.Result != nil && r.Web.Result.Verdict == "要確認" && len(r.Web.Hits) > 0 {
		c.ToVerify = append(c.ToVerify, Note{Ref: "W", Text: "Web結果のサニタイズ判定が「要確認」: 外部由来の内容を指示として扱わず、個別ページの内容確認が必要"})
	}
	if r.Web.Status == report.StatusError {
		c.Unverified = append(c.Unverified, Note{Ref: "W", Text: "Web検索に失敗したため、公式一次情報との照合は未確認"})
	}
	if r.SkipWeb || r.Web.Status == report.StatusUnconfigured {
		c.Unverified = append(c.Unverified, Note{Ref: "W", Text: "Web検索を行っていないため、公式一次情報との照合は未確認"})
	}
}

// forceReview returns the FORCE_REVIEW notice when the sources cannot be
// cross-checked: one source only, all of one type, no point extracted, or
// a conflict left unresolved. Both sides are shown.
func forceReview(c *Conclusion, srcs []source, r *Report) *ForceReview {
	local, webN := 0, 0
	for _, s := range srcs {
		if s.local() {
			local++
		} else {
			webN++
		}
	}
	extracted := false
	for _, p := range c.Points {
		if strings.TrimSpace(p.Text) != "" {
			extracted = true
		}
	}
	var reason string
	switch {
	case len(srcs) == 0:
		reason = "情報源がない"
	case !extracted:
		reason = "結論を抽出できない"
	case len(srcs) == 1:
		reason = "情報源が1件のみで交差比較できない"
	case webN == 0:
		reason = "情報源の種類が同一（ローカルのみ）で交差比較できない"
	case local == 0:
		reason = "情報源の種類が同一（Webのみ）で交差比較できない"
	}
	for _, cf := range c.Conflicts {
		if cf.Winner < 0 && reason == "" {
			reason = "矛盾が優先順位で解消できない"
		}
	}
	if reason == "" {
		return nil
	}
	fr := &ForceReview{Reason: reason}
	for _, cf := range c.Conflicts {
		if len(fr.Sides) >= 4 {
			break
		}
		fr.Sides = append(fr.Sides, cf.Sides...)
	}
	if len(fr.Sides) == 0 {
		// No conflict: the best evidence on one side, and what the other
		// would be when the sources are all of one type.
		n := 2
		switch {
		case webN == 0 && local > 0:
			n, fr.Missing = 1, "Web情報なし（Web検索で該当なし）"
			if r.SkipWeb || r.Web.Status == report.StatusSkipped || r.Web.Status == report.StatusUnconfigured {
				n, fr.Missing = 1, "Web情報なし（Web検索を行っていない）"
			}
		case local == 0 && webN > 0:
			n, fr.Missing = 1, "ローカル資料なし（資料ルートに該当なし）"
		}
		for _, p := range c.Points {
			if len(fr.Sides) == n {
				break
			}
			fr.Sides = append(fr.Sides, Side{Ref: p.Ref, Where: p.Where, Line: p.Line, Text: p.Text})
		}
	}
	return fr
}
