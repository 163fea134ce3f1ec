#pragma once
// Reads one nbformat 4 output (stream, execute_result, display_data, error) into an Output.

#include "notebook/jsoncheck.h"
#include "notebook/output.h"

namespace lizard::notebook {

class OutputReader
{
public:
    explicit OutputReader(JsonCheck& check) : m_check(check) {}

    bool read(const nlohmann::json& v, const QString& where, Output* out);

private:
    bool readStream(const nlohmann::json& v, const QString& where, Output* out);
    bool readRich(const nlohmann::json& v, const QString& where, RichOutput::Kind kind,
                  Output* out);
    bool readError(const nlohmann::json& v, const QString& where, Output* out);
    bool readBundle(const nlohmann::json& v, const QString& where, nlohmann::json* out);

    JsonCheck& m_check;
};

} // namespace lizard::notebook
