<#
Patchwell worklet win-smb1-disabled: evaluation.
Checks that SMB version 1 is off: the SMB server does not accept SMB1
(Get-SmbServerConfiguration EnableSMB1Protocol) and the optional feature SMB1Protocol,
which holds the SMB1 client and server, is not installed.
Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = cannot be checked.
#>
$check = {
    $problems = @()
    try {
        if ((Get-SmbServerConfiguration -ErrorAction Stop).EnableSMB1Protocol) {
            $problems += 'the SMB server accepts SMB1'
        }
    } catch {
        Write-Output "Cannot read the SMB server configuration: $($_.Exception.Message)"
        exit 2
    }
    $feature = Get-WindowsOptionalFeature -Online -FeatureName SMB1Protocol -ErrorAction SilentlyContinue
    if ($feature -and $feature.State -ne 'Disabled' -and $feature.State -ne 'DisabledWithPayloadRemoved') {
        $problems += "the SMB1Protocol feature is $($feature.State)"
    }
    if ($problems.Count -eq 0) {
        Write-Output 'Compliant: SMB1 is off.'
        exit 0
    }
    Write-Output "SMB1 is on: $($problems -join '; ')."
    exit 1
}

# The agent may run a 32-bit PowerShell on 64-bit Windows, where DISM cmdlets refuse to
# service the OS; run the check in the 64-bit one.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check
    exit $LASTEXITCODE
}
& $check
