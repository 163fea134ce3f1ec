#pragma once
// The pieces of the HTML export (notebookexport.h): the page, markdown rendered through
// QTextDocument, code with light highlighting, outputs (images inline as data: URIs).

#include "notebook/celldata.h"

namespace lizard::notebook {

QString renderHtmlPage(const NotebookData& data, const QString& title, const QString& language);
// The body of markdown as HTML; attachment:NAME links become data: URIs from attachments.
QString markdownToHtml(const QString& markdown, const nlohmann::json& attachments = {});
// Escaped code with <span class="k|s|c|n"> for keywords, strings, comments and numbers.
QString highlightCode(const QString& code, const QString& language);
QString outputToHtml(const Output& output);

} // namespace lizard::notebook
