"""How much of what a person said or wrote is about *this* case: the gate every scored item
of a person's own performance passes through, so that a turn with no legal content of the
case ("asdf", one word said over and over, another case's text pasted in) scores near 0
whoever rates it.

A text's **legal terms** are the vocabulary every case shares (court and procedure
formulae, the documents' headings, law names, small numbers and years: ``ZH_GENERIC``,
``EN_GENERIC``); its **case terms** are its other content terms (``text.terms``) found in
the case file, its **foreign terms** those the case file does not hold. The substance of a
text is 0 without a case term, else

    min(1, (case + legal terms) / GROUNDED_TERMS) x min(1, case / (case + foreign terms) / GROUNDED_SHARE)²

so it needs to say something (a repeated word is one term however often it is said), of
this case (one case term at least), and mostly about it (another case's text is mostly that
case's names, facts and sums: even a case of the same kind pasted whole shares a quarter of
its specific terms at most, which the square brings to a quarter of full substance). A
statement that argues this case in a student's own words (terms the file does not use)
keeps full substance while half of its specific terms are the case's.

Consistency and coherence are judged only where there is content to be consistent or
coherent: a semantic item's rating is multiplied by the substance of its candidate, an
exact slot (a party named, the action requested, a phase conducted) counts only in a text
of this case (``of_this_case``: it names a party and holds more of the case than the name).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from court.documents import DOCUMENTS
from court.legaltext.text import normalise, terms

GROUNDED_TERMS = 6
"""Case and legal terms for full substance: one word said over and over is at most 1/6."""
GROUNDED_SHARE = 0.5
"""The share of a text's specific terms that must be the case's for full substance."""
CASE_TERMS_FOR_SLOTS = 3
"""The case terms a text needs, beside a party's name, for its exact slots to count."""
SLOT_SUBSTANCE = 0.3
"""The substance a text needs for its exact slots to count (another case's text, which
may name someone who is a party here, stays under it)."""
NO_CONTENT = "no legal content of this case"

ZH_GENERIC = (
    "原告 被告 第三人 上诉人 被上诉人 原审原告 原审被告 答辩人 被答辩人 申请人 被申请人 当事人 双方 一方 对方 "
    "本院 人民法院 基层人民法院 中级人民法院 高级人民法院 法院 法庭 审判长 审判员 书记员 公诉机关 公诉人 被告人 "
    "辩护人 代理人 诉讼代理人 委托代理人 法定代表人 住所地 出生 汉族 男 女 身份证 住址 某某 "
    "判决 判决如下 裁定 判令 一审 二审 一审判决 二审判决 原判 维持 维持原判 驳回 驳回上诉 撤销 改判 发回重审 "
    "生效 本判决生效之日起 之日起 十日内 于本 履行 支付 给付 承担 负担 诉讼费用 案件受理费 受理费 减半收取 "
    "诉讼请求 诉请 请求 主张 理由 事实 事实与理由 意见 答辩意见 上诉请求 上诉理由 新证据 证据 证明 举证 质证 "
    "认定 查明 经审理查明 本院认为 认为 依照 依据 根据 规定 法律 法律依据 法律规定 条 款 项 之规定 "
    "中华人民共和国 民法典 刑法 民事诉讼法 刑事诉讼法 司法解释 最高人民法院 "
    "全部 部分 其他 其余 不予支持 予以支持 支持 不予 予以 应予 依法 合法 有效 无效 正确 错误 不当 并无不当 "
    "纠纷 纠纷案 一案 本案 案件 案由 民初 民终 刑初 审理 开庭 庭审 陈述 答辩 辩论 法庭辩论 最后陈述 调解 宣判 "
    "提交 提出 申请 表示 要求 说明 存在 构成 属于 应当 可以 没有 不能 不会 可能 问题 情况 方面 以上 如下 "
    "第一 第二 第三 第一项 第二项 第三项 一是 二是 首先 其次 最后 综上 综上所述 据此 因此 所以 但是 "
    "原告方 被告方 诉讼 起诉 起诉状 答辩状 上诉状 民事 刑事 审判 律师 法官 委托 代理 "
    "请 谢谢 好的 是的 明白 知道 同意 不同意 没有异议 有异议 异议 当庭 补充 发表 继续 开始 结束 "
    "利息 利率 年利率 一年期 贷款市场报价利率 市场 报价 全国银行间同业拆借中心 同业拆借 逾期 逾期利息 基数 元为 "
    "计算 计至 之日止 日起 日起算 次日 当日 实际 清偿 实际清偿 约定 本金 金额 款项 共计 合计 万元 元 "
    "一项 上述 不清 事实不清 判项 合法权益 损害 适用法律 适用 不当 错误 认定事实 损失 责任 权利 义务"
)
EN_GENERIC = (
    "plaintiff plaintiffs plaintiff's defendant defendants defendant's appellant appellant's appellee appellee's "
    "respondent claimant party parties side court court's judge presiding clerk prosecution prosecutor prosecutor's "
    "counsel attorney lawyer client honour honor people's republic china chinese district intermediate basic "
    "judgment judgments first-instance second-instance instance order orders ordered affirm affirmed vary varied "
    "set aside remand remanded dismiss dismissed dismissal appeal appeals appealed uphold upheld "
    "shall must pay paid payment within days day effect effective taking takes fee fees costs cost borne bear "
    "litigation case cases acceptance dispute disputes claim claims claimed request requests requested relief "
    "fact facts found finds finding findings reason reasons reasoning ground grounds view opinion opinions "
    "evidence exhibit exhibits proof prove proves proved proven submit submits submitted present presents "
    "article articles paragraph item items law laws code civil criminal procedure provision provisions "
    "interpretation legal basis accordance according pursuant under rule rules supported support supports "
    "full fully part partly partial whole other rest thus therefore hence first second third finally "
    "yes thank thanks please agree disagree objection sustained overruled statement statements argue argues "
    "argument arguments hearing trial debate mediation final record records note "
    "interest rate rates prime lpr overdue calculated calculation until actual actually date dates agreed "
    "amount amounts sum total principal yuan rmb "
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty"
)
"""What every case's talk and documents share: said in any case, it shows nothing of this one."""
TRIVIAL_NUMBER = re.compile(r"^(?:\d{1,2}|(?:19|20)\d\d)$")
"""Small numbers (items, days, months) and years."""
UNREAD_FIELDS = ("id", "procedure", "language", "provenance", "personas")
"""Case-file fields that are not the case's content."""


@lru_cache(maxsize=4)
def generic_terms(language: str) -> frozenset[str]:
    text = ZH_GENERIC if language == "zh" else EN_GENERIC
    headings = " ".join(
        f"{template.title(language)} {' '.join(heading for _, heading in template.headings(language))}"
        for template in DOCUMENTS.values()
    )
    return terms(f"{text} {headings}", language) | frozenset(text.split())


def specific_terms(text: str, language: str) -> frozenset[str]:
    """The content terms of ``text`` that are not shared by every case."""
    generic = generic_terms(language)
    return frozenset(term for term in terms(text, language) if term not in generic and not TRIVIAL_NUMBER.match(term))


def case_text(case: dict[str, Any]) -> str:
    """Every string of the case file but its identifiers and personas, one per line."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk({key: value for key, value in case.items() if key not in UNREAD_FIELDS})
    return "\n".join(found)


@lru_cache(maxsize=32)
def _vocabulary(case_json: str, language: str) -> frozenset[str]:
    return specific_terms(case_text(json.loads(case_json)), language)


def case_vocabulary(case: dict[str, Any], language: str) -> frozenset[str]:
    """The specific terms of the case file."""
    return _vocabulary(json.dumps(case, sort_keys=True, ensure_ascii=False, default=str), language)


@dataclass(frozen=True)
class Substance:
    case_terms: int
    foreign_terms: int
    legal_terms: int = 0
    """The vocabulary every case shares that the text uses ("court", "judgment")."""

    @property
    def value(self) -> float:
        if not self.case_terms:
            return 0.0
        share = self.case_terms / (self.case_terms + self.foreign_terms)
        said = min(1.0, (self.case_terms + self.legal_terms) / GROUNDED_TERMS)
        return said * min(1.0, share / GROUNDED_SHARE) ** 2

    def note(self) -> str:
        """What a reason says of a text short of full substance."""
        if not self.case_terms:
            return NO_CONTENT
        return (
            f"little of this case ({self.case_terms} case terms, {self.foreign_terms} others): "
            f"counted at {self.value:.0%}"
        )


def substance(text: str, case: dict[str, Any], language: str) -> Substance:
    said = specific_terms(text, language)
    vocabulary = case_vocabulary(case, language)
    mine = len(said & vocabulary)
    return Substance(mine, len(said) - mine, len(terms(text, language) & generic_terms(language)))


def reference_terms(reference: str, language: str) -> frozenset[str]:
    """The terms a candidate is asked to cover: the reference's specific terms, or all its
    terms when it has none (a list of headings)."""
    return specific_terms(reference, language) or terms(reference, language)


def specific_coverage(reference: str, text: str, language: str) -> float | None:
    """``text.coverage`` over the reference's specific terms: saying "the court", "the
    plaintiff" or "within ten days" covers nothing of a point. None when the reference has no
    terms."""
    wanted = reference_terms(reference, language)
    if not wanted:
        return None
    return len(wanted & terms(text, language)) / len(wanted)


def names_a_party(text: str, case: dict[str, Any]) -> bool:
    """Whether ``text`` names one of the case's parties (its full name, as the file gives it)."""
    said = normalise(text)
    return any((name := normalise(party.get("name", ""))) and name in said for party in case.get("parties", []))


def of_this_case(text: str, case: dict[str, Any], language: str) -> bool:
    """Whether ``text`` is a document or speech of this case, for its exact slots: it names
    one of the parties, holds ``CASE_TERMS_FOR_SLOTS`` case terms (a name said over and over
    is one) and has ``SLOT_SUBSTANCE``."""
    ground = substance(text, case, language)
    return names_a_party(text, case) and ground.case_terms >= CASE_TERMS_FOR_SLOTS and ground.value >= SLOT_SUBSTANCE
